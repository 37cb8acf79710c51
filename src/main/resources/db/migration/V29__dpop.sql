-- DPoP (RFC 9449, issue 50): a client whose every token request must carry a DPoP proof (RFC 9449 5.2)
ALTER TABLE clients ADD COLUMN dpop_bound_access_tokens BOOLEAN DEFAULT FALSE NOT NULL;

-- The jti of every accepted DPoP proof (RFC 9449 11.1), under SHA-256(key thumbprint + jti), until the proof is too
-- old to be accepted (expires_at, epoch seconds): a second use is refused by the primary key, on any instance.
CREATE TABLE dpop_proof_jtis (
    jti_hash   VARCHAR(64) PRIMARY KEY,
    expires_at BIGINT      NOT NULL
);
CREATE INDEX dpop_proof_jtis_expiry ON dpop_proof_jtis (expires_at);

-- The JWK thumbprint (RFC 7638) a public client's refresh tokens are bound to (RFC 9449 5); null: not bound
ALTER TABLE token_grants ADD COLUMN dpop_jkt VARCHAR(64);
