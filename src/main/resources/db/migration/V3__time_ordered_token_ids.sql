-- Authorization codes and refresh tokens become "<id>.<secret>" (dev.portcullis.crypto.SplitToken): the row is found
-- by a time-ordered id (UUIDv7) and the secret is checked against secret_hash. Keying rows by the hash of the whole
-- value put every insert and redemption on a random page of a growing index (docs/decisions.md).
-- Rows written before this version keep the hash of the whole value as their id and have no secret_hash; the
-- codes and tokens they belong to keep working until they expire.
ALTER TABLE authorization_codes RENAME COLUMN code_hash TO code_id;
ALTER TABLE authorization_codes ADD COLUMN secret_hash VARCHAR(64);
ALTER TABLE refresh_tokens RENAME COLUMN token_hash TO token_id;
ALTER TABLE refresh_tokens ADD COLUMN secret_hash VARCHAR(64);
