-- RFC 9101 10.5: a client whose authorization requests must be signed request objects
ALTER TABLE clients ADD COLUMN require_signed_request_object BOOLEAN DEFAULT FALSE NOT NULL;
