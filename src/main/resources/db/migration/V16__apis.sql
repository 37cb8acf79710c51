-- The APIs (resource servers) an access token can be issued for (RFC 8707 resource indicators, issue 35). An API's
-- identifier is its token audience; its scopes (space-separated, unique across APIs and the built-in scopes) are
-- given to clients like the built-in ones; access_token_signing_alg NULL means portcullis.access-token.signing-alg.
CREATE TABLE apis (
    api_id                   VARCHAR(64)   PRIMARY KEY,
    identifier               VARCHAR(255)  NOT NULL UNIQUE,
    api_name                 VARCHAR(200)  NOT NULL,
    scopes                   VARCHAR(4000) NOT NULL,
    access_token_signing_alg VARCHAR(16),
    created_at               BIGINT        NOT NULL,
    updated_at               BIGINT        NOT NULL
);

-- The resources an authorization request named (space-separated identifiers, NULL when none): the code carries them
-- to its grant, and the grant keeps them so that a token request or a refresh may narrow within them.
ALTER TABLE authorization_codes ADD COLUMN resources VARCHAR(2600);
ALTER TABLE token_grants ADD COLUMN resources VARCHAR(2600);
