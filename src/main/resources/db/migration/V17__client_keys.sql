-- How a client authenticates at the token, introspection and revocation endpoints (issue 36). NULL: not chosen, so
-- a confidential client registered before this column may use either secret method, as it always could, and a
-- public one is 'none'. private_key_jwt clients have no secret and register either jwks (an inline JWK set of public
-- keys) or jwks_uri.
ALTER TABLE clients ADD COLUMN token_endpoint_auth_method VARCHAR(32);
ALTER TABLE clients ADD COLUMN jwks VARCHAR(20000);
ALTER TABLE clients ADD COLUMN jwks_uri VARCHAR(2000);
-- A rotated-out secret that keeps working until previous_secret_expires_at (epoch seconds), so backends can move
-- to the new one without a lock-step change; both NULL when there is none.
ALTER TABLE clients ADD COLUMN previous_secret_hash VARCHAR(64);
ALTER TABLE clients ADD COLUMN previous_secret_expires_at BIGINT;

-- The jti of every client assertion accepted (RFC 7523 3), kept until the assertion expires: the primary key,
-- base64url(SHA-256(client_id, jti)), makes a second use fail in one atomic insert, whichever instance it reaches.
CREATE TABLE client_assertion_jtis (
    jti_hash   VARCHAR(64) PRIMARY KEY,
    client_id  VARCHAR(64) NOT NULL,
    expires_at BIGINT      NOT NULL
);
CREATE INDEX client_assertion_jtis_expiry ON client_assertion_jtis (expires_at);
