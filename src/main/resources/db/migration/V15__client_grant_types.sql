-- The grant types a client may use at the token endpoint (space-separated); existing clients keep the two they
-- had. A client-credentials token has no user, so its token_grants row has none.
ALTER TABLE clients ADD COLUMN grant_types VARCHAR(500) DEFAULT 'authorization_code refresh_token' NOT NULL;
ALTER TABLE token_grants ALTER COLUMN user_id DROP NOT NULL;
