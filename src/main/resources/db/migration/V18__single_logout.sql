-- Single logout (issue 37). sid: the SSO session's own random id for relying parties (OIDC Back-Channel Logout
-- 1.0 "sid"), never the cookie or its hash; sessions started before V18 have none until their next sign-in. Codes
-- carry it from the session to the token grant, whose ID tokens (first and refreshed) state it.
ALTER TABLE sso_sessions ADD COLUMN sid VARCHAR(64);
CREATE UNIQUE INDEX sso_sessions_sid ON sso_sessions (sid);
ALTER TABLE authorization_codes ADD COLUMN sid VARCHAR(64);
ALTER TABLE token_grants ADD COLUMN sid VARCHAR(64);
CREATE INDEX token_grants_sid ON token_grants (sid);

-- A client's logout notification endpoints (Back-Channel and Front-Channel Logout 1.0 client metadata); the
-- session_required flags default to true, as the specifications say.
ALTER TABLE clients ADD COLUMN backchannel_logout_uri VARCHAR(2000);
ALTER TABLE clients ADD COLUMN backchannel_logout_session_required BOOLEAN DEFAULT TRUE NOT NULL;
ALTER TABLE clients ADD COLUMN frontchannel_logout_uri VARCHAR(2000);
ALTER TABLE clients ADD COLUMN frontchannel_logout_session_required BOOLEAN DEFAULT TRUE NOT NULL;
