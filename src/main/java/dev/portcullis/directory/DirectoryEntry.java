package dev.portcullis.directory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user entry as read at sign-in or re-check: {@code subject} is the stable id (entryUUID, or objectGUID as its
 * canonical string) that becomes the OIDC {@code sub}; {@code name} and {@code email} are claims, {@code null} when
 * absent; {@code claims} holds the standard claims of {@code portcullis.ldap.claim-attributes} the entry has a value
 * for, named as the user record names them ({@code given_name}, {@code address.locality} …), unchecked.
 * {@code username} is lower-case. {@code administrator}: one of the groups is {@code portcullis.ldap.admin-group}.
 */
public record DirectoryEntry(String subject, String dn, String username, String name, String email,
                             Map<String, String> claims, List<String> groups, boolean administrator) {

    public DirectoryEntry {
        claims = Map.copyOf(claims);
    }

    /** An entry whose claims are its given and family name (each left out when null). */
    public DirectoryEntry(String subject, String dn, String username, String name, String givenName,
                          String familyName, String email, List<String> groups, boolean administrator) {
        this(subject, dn, username, name, email, names(givenName, familyName), groups, administrator);
    }

    /** An entry without the admin group whose claims are its given and family name. */
    public DirectoryEntry(String subject, String dn, String username, String name, String givenName,
                          String familyName, String email, List<String> groups) {
        this(subject, dn, username, name, givenName, familyName, email, groups, false);
    }

    private static Map<String, String> names(String givenName, String familyName) {
        Map<String, String> claims = new LinkedHashMap<>();
        if (givenName != null) {
            claims.put("given_name", givenName);
        }
        if (familyName != null) {
            claims.put("family_name", familyName);
        }
        return claims;
    }
}
