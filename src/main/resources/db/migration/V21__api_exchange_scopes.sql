-- What the backend of an API may obtain by token exchange (RFC 8693, issue 47): the scopes of other APIs
-- (space-separated) that its backend_client_id may exchange the API's tokens for. NULL: none. An administrator's
-- decision on the API whose tokens the backend receives, so an exchange never widens on its own.
ALTER TABLE apis ADD COLUMN exchange_scopes VARCHAR(4000);
