-- Pushed authorization requests (RFC 9126, issue 50): the request a client pushed to /oauth/par, under
-- base64url(SHA-256(the reference of its request_uri)), never the reference itself. Bound to client_id. Until
-- redeemed_at it may be redeemed once at /oauth/authorize before expires_at (epoch seconds, 60 s after the push);
-- redeeming it is one UPDATE that sets redeemed_at and gives the sign-in pages, which carry the pending request by
-- this hash, a new expires_at. parameters is the validated request as a form-encoded query.
CREATE TABLE pushed_authorization_requests (
    reference_hash VARCHAR(64)    PRIMARY KEY,
    client_id      VARCHAR(64)    NOT NULL,
    parameters     VARCHAR(20000) NOT NULL,
    expires_at     BIGINT         NOT NULL,
    redeemed_at    BIGINT
);
CREATE INDEX pushed_authorization_requests_expiry ON pushed_authorization_requests (expires_at);

-- RFC 9126 6: a client that must push its authorization requests
ALTER TABLE clients ADD COLUMN require_pushed_authorization_requests BOOLEAN DEFAULT FALSE NOT NULL;
