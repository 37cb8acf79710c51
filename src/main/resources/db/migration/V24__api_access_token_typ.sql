-- The header typ of an API's access tokens (issue 49): 'at+jwt' (RFC 9068, the default) or 'JWT' for a backend whose
-- library cannot be told to accept at+jwt. An administrator's choice per API; existing APIs keep at+jwt.
ALTER TABLE apis ADD COLUMN access_token_typ VARCHAR(8) DEFAULT 'at+jwt' NOT NULL;
