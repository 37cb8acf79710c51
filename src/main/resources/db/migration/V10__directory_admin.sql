-- Whether a directory user was, at their last sign-in or re-check, a member of portcullis.ldap.admin-group (which
-- makes them an administrator of the console). Kept apart from roles, which the admin API grants and revokes: a
-- change of group membership never touches a role an operator gave, and the reverse.
ALTER TABLE users ADD COLUMN directory_admin BOOLEAN DEFAULT FALSE NOT NULL;
