-- RFC 9101 10.5: a client whose authorization requests must be signed request objects
ALTER TABLE clients ADD COLUMN require_signed_request_object BOOLEAN DEFAULT FALSE NOT NULL;

-- A pushed or carried request that came as a verified request object: the pages' later validations of the stored
-- request know it was signed, so require_signed_request_object holds for them too.
ALTER TABLE pushed_authorization_requests ADD COLUMN signed BOOLEAN DEFAULT FALSE NOT NULL;

-- The jti of every accepted request object (RFC 9101), under the hash of client and jti, kept until the object
-- expires (epoch seconds): its first use is one INSERT, so a second use within its lifetime is refused on any
-- instance.
CREATE TABLE request_object_jtis (
    jti_hash   VARCHAR(64) PRIMARY KEY,
    client_id  VARCHAR(64) NOT NULL,
    expires_at BIGINT      NOT NULL
);
CREATE INDEX request_object_jtis_expiry ON request_object_jtis (expires_at);
