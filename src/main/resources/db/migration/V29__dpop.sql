-- DPoP (RFC 9449, issue 50): a client whose every token request must carry a DPoP proof (RFC 9449 5.2)
ALTER TABLE clients ADD COLUMN dpop_bound_access_tokens BOOLEAN DEFAULT FALSE NOT NULL;
