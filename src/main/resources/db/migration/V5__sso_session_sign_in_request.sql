-- The authorization request a session's sign-in was made for (hash of its query), until a consent step uses it:
-- proves to the consent page that prompt=login / max_age were honoured for exactly that request (OIDC Core 3.1.2.1).
ALTER TABLE sso_sessions ADD COLUMN sign_in_request VARCHAR(64);
