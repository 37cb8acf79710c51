-- Administration (issue 24): accounts and clients can be disabled, users carry roles, SSO sessions can be listed and
-- ended by an opaque id, and the audit trail names who made a change.

-- A disabled user cannot sign in; their sessions and token families end when they are disabled.
ALTER TABLE users ADD COLUMN enabled BOOLEAN DEFAULT TRUE NOT NULL;
-- Space-separated role names from the catalogue in account.User (today only "admin").
ALTER TABLE users ADD COLUMN roles VARCHAR(200) DEFAULT '' NOT NULL;

-- A disabled client is refused at the authorization and token endpoints; its token families end when it is disabled.
ALTER TABLE clients ADD COLUMN enabled BOOLEAN DEFAULT TRUE NOT NULL;

-- The id an administrator names a session by (never the cookie value or its hash); the sign-in's client address; the
-- clients the session has been used for (space-separated, the sign-in's client first).
ALTER TABLE sso_sessions ADD COLUMN session_id VARCHAR(64);
ALTER TABLE sso_sessions ADD COLUMN ip VARCHAR(64);
ALTER TABLE sso_sessions ADD COLUMN client_ids VARCHAR(2000) DEFAULT '' NOT NULL;
-- Sessions started before V7 get an id derived from their row key: a prefix of a hash, which opens nothing.
UPDATE sso_sessions SET session_id = SUBSTRING(session_hash, 1, 22) WHERE session_id IS NULL;
CREATE UNIQUE INDEX sso_sessions_id ON sso_sessions (session_id);

-- Who made a change: "admin-token" for the admin API's bearer token, "user:<id>" for a signed-in administrator.
ALTER TABLE audit_events ADD COLUMN actor VARCHAR(100);
