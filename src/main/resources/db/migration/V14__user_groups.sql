-- Groups an administrator gives a local user (issue 35), released like a directory user's under scope groups.
-- Group names, one per line, sorted and without duplicates: at most 100 of at most 256 characters each. A
-- directory user's groups stay in directory_groups, which only the directory's sign-in and re-check write.
ALTER TABLE users ADD COLUMN local_groups VARCHAR(25700);
