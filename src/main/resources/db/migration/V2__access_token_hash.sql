-- Each access token's record keeps the hash of the exact token, so this server's own endpoints validate a token
-- with one SHA-256 and the row they read anyway, instead of a signature verification (see docs/decisions.md).
-- Rows written before this migration have no hash; their tokens are still checked by signature.
ALTER TABLE access_tokens ADD COLUMN token_hash VARCHAR(64);
