-- Issue 49. The OIDC Core 5.1 standard claims a user may have (users: UserRepository's), released by scope: profile (names, picture,
-- website, gender, birthdate, zoneinfo, locale, updated_at), phone, address. The address is stored member by member;
-- profile_updated_at is the updated_at claim: when a released claim last changed (updated_at also moves with
-- passwords and roles).
ALTER TABLE users ADD COLUMN middle_name VARCHAR(200);
ALTER TABLE users ADD COLUMN nickname VARCHAR(200);
ALTER TABLE users ADD COLUMN picture VARCHAR(2000);
ALTER TABLE users ADD COLUMN website VARCHAR(2000);
ALTER TABLE users ADD COLUMN gender VARCHAR(50);
ALTER TABLE users ADD COLUMN birthdate VARCHAR(10);
ALTER TABLE users ADD COLUMN zoneinfo VARCHAR(64);
ALTER TABLE users ADD COLUMN locale VARCHAR(35);
ALTER TABLE users ADD COLUMN phone_number VARCHAR(40);
ALTER TABLE users ADD COLUMN phone_number_verified BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE users ADD COLUMN address_formatted VARCHAR(500);
ALTER TABLE users ADD COLUMN address_street VARCHAR(500);
ALTER TABLE users ADD COLUMN address_locality VARCHAR(200);
ALTER TABLE users ADD COLUMN address_region VARCHAR(200);
ALTER TABLE users ADD COLUMN address_postal_code VARCHAR(40);
ALTER TABLE users ADD COLUMN address_country VARCHAR(100);
ALTER TABLE users ADD COLUMN profile_updated_at BIGINT;
UPDATE users SET profile_updated_at = updated_at;
-- The claims request parameter (OIDC Core 5.5) in its normal form (ClaimsRequest.toJson), carried from the code to
-- its grant, whose ID tokens and userinfo answers follow it; null without one.
ALTER TABLE authorization_codes ADD COLUMN claims VARCHAR(8000);
ALTER TABLE token_grants ADD COLUMN claims VARCHAR(8000);
-- A client whose ID tokens carry the granted scopes' claims too (relying parties that read only the ID token);
-- otherwise an ID token carries identity and session claims, and the scopes' claims are at userinfo.
ALTER TABLE clients ADD COLUMN id_token_claims BOOLEAN DEFAULT FALSE NOT NULL;
