-- Adding or removing a second factor (issue 33). factor_at: when this SSO session last completed a second factor
-- (a one-time code, a recovery code or a passkey; a passwordless sign-in counts), epoch seconds, NULL if never.
-- password_at: when it last re-entered the password on the account page (the step-up of a user without a factor).
-- The account page changes factors only within 10 minutes of one of them; the database holds it, so any instance
-- decides alike.
ALTER TABLE sso_sessions ADD COLUMN factor_at BIGINT;
ALTER TABLE sso_sessions ADD COLUMN password_at BIGINT;

-- A pending (unconfirmed) authenticator seed belongs to the SSO session it was shown to (its hash) and lives
-- 10 minutes from created_at; another session, or a later visit, gets a new seed. NULL in rows written before.
ALTER TABLE totp_factors ADD COLUMN session_hash VARCHAR(64);
