-- One row that an instance applying a configuration document locks (SELECT ... FOR UPDATE) for the length of its
-- transaction, so that instances starting together with the same document apply it one after the other.
CREATE TABLE configuration_import_lock (
    name VARCHAR(32) PRIMARY KEY
);
INSERT INTO configuration_import_lock (name) VALUES ('configuration');
