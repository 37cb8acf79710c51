-- Passkeys (WebAuthn Level 2, issue 23). One row per registered credential of a user. credential_hash is the
-- SHA-256 (base64url) of the credential id: the lookup key of an assertion, short enough for any index, while the
-- id itself (up to 1023 bytes, base64url here) is kept for allowCredentials/excludeCredentials. public_key holds
-- webauthn4j's attested credential data (AAGUID, id, COSE key), base64. sign_count is raised by the one conditional
-- UPDATE that accepts an assertion, so a counter that does not increase is refused on any instance.
CREATE TABLE webauthn_credentials (
    passkey_id      VARCHAR(64)   PRIMARY KEY,
    user_id         VARCHAR(64)   NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    credential_hash VARCHAR(64)   NOT NULL UNIQUE,
    credential_id   VARCHAR(1400) NOT NULL,
    public_key      VARCHAR(4096) NOT NULL,
    name            VARCHAR(100)  NOT NULL,
    sign_count      BIGINT        NOT NULL,
    created_at      BIGINT        NOT NULL,
    last_used_at    BIGINT
);
CREATE INDEX webauthn_credentials_user ON webauthn_credentials (user_id);

-- Outstanding WebAuthn challenges, stored as SHA-256 of the challenge. binding_hash ties one to the browser it was
-- given to (its SSO session, or its CSRF cookie before sign-in) and purpose to the ceremony; a DELETE that matches
-- all three, unexpired, uses it up: one statement decides, so a challenge works once on any instance.
CREATE TABLE webauthn_challenges (
    challenge_hash VARCHAR(64) PRIMARY KEY,
    purpose        VARCHAR(16) NOT NULL,
    binding_hash   VARCHAR(64) NOT NULL,
    expires_at     BIGINT      NOT NULL
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
