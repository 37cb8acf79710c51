-- Second factors (issue 23). amr columns hold the RFC 8176 methods of a sign-in, space-separated ("pwd",
-- "pwd otp"); they travel from the SSO session to the authorization code and the token grant, so the token endpoint
-- puts amr/acr into ID tokens without another read.
ALTER TABLE sso_sessions ADD COLUMN amr VARCHAR(64) DEFAULT 'pwd' NOT NULL;
-- whether the user had a confirmed second factor when the session began (policy "enrolled" then asks for it)
ALTER TABLE sso_sessions ADD COLUMN factor_enrolled BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE authorization_codes ADD COLUMN amr VARCHAR(64) DEFAULT 'pwd' NOT NULL;
ALTER TABLE token_grants ADD COLUMN amr VARCHAR(64) DEFAULT 'pwd' NOT NULL;
ALTER TABLE clients ADD COLUMN require_mfa BOOLEAN DEFAULT FALSE NOT NULL;

-- One TOTP authenticator per user. The seed is sealed by crypto.EncryptionKeys (user id as associated data);
-- confirmed_at stays NULL until the first code proves the app has it. last_step is the RFC 6238 time-step of the
-- last accepted code: a code is accepted only by the UPDATE that raises it, so each is used once on any instance.
CREATE TABLE totp_factors (
    user_id       VARCHAR(64)  PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
    secret_sealed VARCHAR(512) NOT NULL,
    created_at    BIGINT       NOT NULL,
    confirmed_at  BIGINT,
    last_step     BIGINT       NOT NULL
);

-- Single-use recovery codes, stored as SHA-256 of the code (80 random bits each); used_at is set once.
CREATE TABLE recovery_codes (
    user_id   VARCHAR(64) NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    code_hash VARCHAR(64) NOT NULL,
    used_at   BIGINT,
    PRIMARY KEY (user_id, code_hash)
);
