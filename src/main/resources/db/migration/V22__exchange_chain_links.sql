-- An exchanged token's grant names the access token it was exchanged from (RFC 8693, issue 47), so that a chain ends
-- with any of its links: revoking that token, or any grant above it (a backend's client disabled, its grant
-- revoked), revokes the grants exchanged from it down the chain, and deleting it (with its client, user or grant)
-- deletes them. NULL for every other grant, and for grants exchanged before V22 (linked to their root only).
ALTER TABLE token_grants ADD COLUMN subject_jti VARCHAR(64);
ALTER TABLE token_grants ADD CONSTRAINT token_grants_subject_jti_fk FOREIGN KEY (subject_jti)
    REFERENCES access_tokens (jti) ON DELETE CASCADE;
CREATE INDEX token_grants_subject_jti ON token_grants (subject_jti);
