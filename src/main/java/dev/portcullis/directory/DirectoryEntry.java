package dev.portcullis.directory;

import java.util.List;

/**
 * A user entry as read at sign-in or re-check: {@code subject} is the stable id (entryUUID, or objectGUID as its
 * canonical string) that becomes the OIDC {@code sub}; the other values are claims, {@code null} when absent.
 * {@code username} is lower-case.
 */
public record DirectoryEntry(String subject, String dn, String username, String name, String givenName,
                             String familyName, String email, List<String> groups) {
}
