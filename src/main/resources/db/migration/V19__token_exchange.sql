-- Token exchange (RFC 8693, issue 36). An API's backend_client_id names the client its backend authenticates as:
-- that client alone may exchange access tokens issued for the API (NULL: no client may).
ALTER TABLE apis ADD COLUMN backend_client_id VARCHAR(64);

-- An exchanged token's grant keeps the grant of the user's original authorization (the root of the chain; NULL for
-- every other grant): revoking that grant revokes the exchanged ones too, and deleting it deletes them.
ALTER TABLE token_grants ADD COLUMN subject_grant_id VARCHAR(64);
ALTER TABLE token_grants ADD CONSTRAINT token_grants_subject_grant_fk FOREIGN KEY (subject_grant_id)
    REFERENCES token_grants (grant_id) ON DELETE CASCADE;
CREATE INDEX token_grants_subject_grant ON token_grants (subject_grant_id);
