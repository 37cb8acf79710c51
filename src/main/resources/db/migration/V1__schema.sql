-- Portcullis schema. Runs unchanged on H2 2.x and PostgreSQL 13+.
-- Conventions: times are epoch seconds (BIGINT) unless the name says _ms; every secret the server hands out
-- (client secret, code, refresh token, SSO session id) is stored only as base64url(SHA-256(value)) in a *_hash column.

CREATE TABLE clients (
    client_id                 VARCHAR(64)    PRIMARY KEY,
    client_name               VARCHAR(200)   NOT NULL,
    confidential              BOOLEAN        NOT NULL,
    secret_hash               VARCHAR(64),                 -- NULL for public clients
    redirect_uris             VARCHAR(20000) NOT NULL,     -- newline-separated, exact strings
    post_logout_redirect_uris VARCHAR(20000) NOT NULL,     -- newline-separated, may be empty
    scopes                    VARCHAR(1000)  NOT NULL,     -- space-separated: what the client may request
    skip_consent              BOOLEAN        NOT NULL,
    created_at                BIGINT         NOT NULL,
    updated_at                BIGINT         NOT NULL
);

CREATE TABLE users (
    user_id       VARCHAR(64)  PRIMARY KEY,               -- the OIDC "sub": random, stable, never reused
    username      VARCHAR(100) NOT NULL UNIQUE,           -- stored lower-case; sign-in is case-insensitive
    email         VARCHAR(254),
    name          VARCHAR(200),
    password_hash VARCHAR(255) NOT NULL,                  -- PHC string, parameters included ($argon2id$...)
    created_at    BIGINT       NOT NULL,
    updated_at    BIGINT       NOT NULL
);

-- Server-side SSO session; the browser cookie holds the random id, the table only its hash.
CREATE TABLE sso_sessions (
    session_hash VARCHAR(64) PRIMARY KEY,
    user_id      VARCHAR(64) NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    auth_time    BIGINT      NOT NULL,
    created_at   BIGINT      NOT NULL,
    last_seen_at BIGINT      NOT NULL,
    expires_at   BIGINT      NOT NULL                    -- absolute end; idle end is last_seen_at + idle ttl
);
CREATE INDEX sso_sessions_user ON sso_sessions (user_id);

-- Remembered consent: the scopes a user granted to a client.
CREATE TABLE consents (
    user_id    VARCHAR(64)   NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    client_id  VARCHAR(64)   NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
    scope      VARCHAR(1000) NOT NULL,
    granted_at BIGINT        NOT NULL,
    PRIMARY KEY (user_id, client_id)
);

-- One row per redeemed authorization code: the grant that its access and refresh tokens belong to.
-- Revoking a grant (code replay, refresh-token reuse, user revocation, client deletion) kills every token in it.
CREATE TABLE token_grants (
    grant_id   VARCHAR(64)   PRIMARY KEY,
    client_id  VARCHAR(64)   NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
    user_id    VARCHAR(64)   NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    scope      VARCHAR(1000) NOT NULL,
    auth_time  BIGINT        NOT NULL,
    created_at BIGINT        NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX token_grants_client ON token_grants (client_id);
CREATE INDEX token_grants_user ON token_grants (user_id);

CREATE TABLE authorization_codes (
    code_hash             VARCHAR(64)   PRIMARY KEY,
    client_id             VARCHAR(64)   NOT NULL REFERENCES clients (client_id) ON DELETE CASCADE,
    user_id               VARCHAR(64)   NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    redirect_uri          VARCHAR(2000) NOT NULL,
    redirect_uri_given    BOOLEAN       NOT NULL,        -- RFC 6749 4.1.3: then the token request must repeat it
    scope                 VARCHAR(1000) NOT NULL,
    nonce                 VARCHAR(512),
    code_challenge        VARCHAR(128),
    code_challenge_method VARCHAR(16),
    auth_time             BIGINT        NOT NULL,
    session_hash          VARCHAR(64),
    created_at            BIGINT        NOT NULL,
    expires_at            BIGINT        NOT NULL,
    redeemed_at           BIGINT,                         -- set by the one atomic redemption UPDATE
    grant_id              VARCHAR(64)                     -- the grant created by redemption (for replay revocation)
);
CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at);

CREATE TABLE refresh_tokens (
    token_hash VARCHAR(64)   PRIMARY KEY,
    grant_id   VARCHAR(64)   NOT NULL REFERENCES token_grants (grant_id) ON DELETE CASCADE,
    scope      VARCHAR(1000) NOT NULL,
    created_at BIGINT        NOT NULL,
    expires_at BIGINT        NOT NULL,
    used_at    BIGINT                                     -- set when rotated; presenting it again is reuse
);
CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);

-- Issued access tokens (JWTs) by their jti, so they can be revoked and introspected.
CREATE TABLE access_tokens (
    jti        VARCHAR(64)   PRIMARY KEY,
    grant_id   VARCHAR(64)   NOT NULL REFERENCES token_grants (grant_id) ON DELETE CASCADE,
    scope      VARCHAR(1000) NOT NULL,
    created_at BIGINT        NOT NULL,
    expires_at BIGINT        NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX access_tokens_grant ON access_tokens (grant_id);

-- Signing keys shared by every instance. A key is published in the JWKS from created_at, signs from
-- active_from, stops signing at retired_at and is dropped from the JWKS once its last token has expired.
CREATE TABLE signing_keys (
    kid         VARCHAR(64)   PRIMARY KEY,
    alg         VARCHAR(16)   NOT NULL,
    private_jwk VARCHAR(16000) NOT NULL,
    created_at  BIGINT        NOT NULL,
    active_from BIGINT        NOT NULL,
    retired_at  BIGINT
);

-- Sign-in throttling counters, per account and per client IP.
CREATE TABLE login_throttle (
    throttle_key     VARCHAR(200) PRIMARY KEY,
    failures         INTEGER      NOT NULL,
    first_failure_at BIGINT       NOT NULL,
    locked_until     BIGINT
);

-- Security audit trail. Never holds a secret (no passwords, codes, tokens).
CREATE SEQUENCE audit_event_seq START WITH 1 INCREMENT BY 1;
CREATE TABLE audit_events (
    event_id       BIGINT        PRIMARY KEY,
    occurred_at_ms BIGINT        NOT NULL,
    event_type     VARCHAR(64)   NOT NULL,
    outcome        VARCHAR(16)   NOT NULL,
    client_id      VARCHAR(64),
    subject        VARCHAR(100),                          -- username or user id, never a credential
    ip             VARCHAR(64),
    detail         VARCHAR(1000)
);
CREATE INDEX audit_events_time ON audit_events (occurred_at_ms);
