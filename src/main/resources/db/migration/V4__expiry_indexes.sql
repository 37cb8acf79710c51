-- The purge of expired token rows (dev.portcullis.retention.ExpiredRowsCleanup) finds them by expiry. Without these
-- indexes every run would read both tables whole; with them it reads only what it deletes. expires_at grows with
-- time, so the token path's inserts land at the right edge of each index.
CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
