package dev.portcullis.directory;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;

/** The pure conversions of directory values: filter templates with escaped values, and binary GUIDs. */
public final class LdapValues {

    private LdapValues() {
    }

    /**
     * {@code template} with {@code {0}} replaced by {@code username} and {@code {dn}} by {@code dn}, each escaped as
     * an assertion value (RFC 4515 3: {@code *}, {@code (}, {@code )}, {@code \} and NUL become {@code \2a} ...), so a
     * typed value can never change the filter's structure.
     */
    public static Filter filter(String template, String username, String dn) throws LDAPException {
        String f = template.replace("{0}", Filter.encodeValue(username));
        if (dn != null) {
            f = f.replace("{dn}", Filter.encodeValue(dn));
        }
        return Filter.create(f);
    }

    /**
     * {@code template} with {@code {0}} replaced by a Kerberos principal and {@code {1}} by its name before
     * {@code @}, each escaped as an assertion value, as in {@link #filter}.
     */
    public static Filter principalFilter(String template, String principal, String account) throws LDAPException {
        // one pass, so a brace in a principal is never read as a placeholder
        return Filter.create(java.util.regex.Pattern.compile("\\{([01])\\}").matcher(template).replaceAll(m ->
                java.util.regex.Matcher.quoteReplacement(Filter.encodeValue(m.group(1).equals("0") ? principal
                        : account))));
    }

    /**
     * Active Directory's binary objectGUID as the canonical GUID string: the first three fields are stored
     * little-endian, the last two in order (MS-DTYP 2.3.4).
     */
    public static String guid(byte[] b) {
        if (b == null || b.length != 16) {
            throw new IllegalArgumentException("a GUID has 16 bytes");
        }
        return String.format("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    }

    /** The inverse of {@link #guid}, for searching an entry by its objectGUID. */
    public static byte[] guidBytes(String guid) {
        String hex = guid.replace("-", "");
        if (hex.length() != 32 || !hex.matches("[0-9a-fA-F]{32}")) {
            throw new IllegalArgumentException("not a GUID: " + guid);
        }
        byte[] in = new byte[16];
        for (int i = 0; i < 16; i++) {
            in[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new byte[] {in[3], in[2], in[1], in[0], in[5], in[4], in[7], in[6], in[8], in[9], in[10], in[11],
            in[12], in[13], in[14], in[15]};
    }
}
