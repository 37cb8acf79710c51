-- The authenticator of every Kerberos ticket accepted at the login page (SPNEGO, issue 47): the primary key,
-- base64url(SHA-256(the AP-REQ authenticator's ciphertext)), makes a replayed Negotiate token fail in one atomic
-- insert, whichever instance it reaches. Never the token. Kept until expires_at (epoch seconds), beyond the time any
-- authenticator is accepted for (Kerberos' clock skew either side of its own time).
CREATE TABLE kerberos_authenticators (
    authenticator_hash VARCHAR(64) PRIMARY KEY,
    expires_at         BIGINT      NOT NULL
);
CREATE INDEX kerberos_authenticators_expiry ON kerberos_authenticators (expires_at);
