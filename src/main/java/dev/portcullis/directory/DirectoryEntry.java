package dev.portcullis.directory;

import java.util.List;

/**
 * A user entry as read at sign-in or re-check: {@code subject} is the stable id (entryUUID, or objectGUID as its
 * canonical string) that becomes the OIDC {@code sub}; the other values are claims, {@code null} when absent.
 * {@code username} is lower-case. {@code administrator}: one of the groups is {@code portcullis.ldap.admin-group}.
 */
public record DirectoryEntry(String subject, String dn, String username, String name, String givenName,
                             String familyName, String email, List<String> groups, boolean administrator) {

    /** An entry without the admin group. */
    public DirectoryEntry(String subject, String dn, String username, String name, String givenName,
                          String familyName, String email, List<String> groups) {
        this(subject, dn, username, name, givenName, familyName, email, groups, false);
    }
}
