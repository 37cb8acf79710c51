-- Users from the LDAP / Active Directory store get a row of their own at first sign-in, so sessions, grants and
-- consents refer to them like to any user. Their user_id is the directory's stable id (entryUUID or objectGUID),
-- they have no password hash (the directory checks the password), and their claims and groups are refreshed at
-- every sign-in and re-check.
ALTER TABLE users ADD COLUMN source VARCHAR(8) DEFAULT 'local' NOT NULL;
ALTER TABLE users ADD CONSTRAINT users_source CHECK (source IN ('local', 'ldap'));
ALTER TABLE users ADD COLUMN directory_dn VARCHAR(1024);
ALTER TABLE users ADD COLUMN given_name VARCHAR(200);
ALTER TABLE users ADD COLUMN family_name VARCHAR(200);
-- group names, one per line, as captured at the last sign-in or re-check
ALTER TABLE users ADD COLUMN directory_groups VARCHAR(65535);
-- when the entry was last found enabled in the directory (epoch seconds); refresh re-checks after an interval
ALTER TABLE users ADD COLUMN directory_checked_at BIGINT;
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;
