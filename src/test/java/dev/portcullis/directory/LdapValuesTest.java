package dev.portcullis.directory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import org.junit.jupiter.api.Test;

class LdapValuesTest {

    private static Filter uid(String typed) throws LDAPException {
        return LdapValues.filter("(uid={0})", typed, null);
    }

    @Test
    void filterWhenUsernameHasAnAsteriskThenItIsEscapedNotAWildcard() throws LDAPException {
        Filter f = uid("*");
        assertEquals("(uid=\\2a)", f.toString());
        assertEquals(Filter.FILTER_TYPE_EQUALITY, f.getFilterType());
        assertEquals("*", f.getAssertionValue());
    }

    @Test
    void filterWhenUsernameHasAnOpeningParenthesisThenItIsEscaped() throws LDAPException {
        assertEquals("(uid=a\\28b)", uid("a(b").toString());
    }

    @Test
    void filterWhenUsernameHasAClosingParenthesisThenItIsEscaped() throws LDAPException {
        Filter f = uid("admin)(uid=*");
        assertEquals("(uid=admin\\29\\28uid=\\2a)", f.toString());
        assertEquals(Filter.FILTER_TYPE_EQUALITY, f.getFilterType());
        assertEquals("admin)(uid=*", f.getAssertionValue());
    }

    @Test
    void filterWhenUsernameHasABackslashThenItIsEscaped() throws LDAPException {
        Filter f = uid("a\\2a");
        assertEquals("(uid=a\\5c2a)", f.toString());
        assertEquals("a\\2a", f.getAssertionValue());
    }

    @Test
    void filterWhenUsernameHasNulThenItIsEscaped() throws LDAPException {
        Filter f = uid("a\u0000b");
        assertEquals("(uid=a\\00b)", f.toString());
        assertEquals("a\u0000b", f.getAssertionValue());
    }

    @Test
    void filterWhenAnOrIsInjectedThenTheStructureIsTheTemplates() throws LDAPException {
        Filter f = LdapValues.filter("(&(objectClass=user)(sAMAccountName={0}))", "*)(|(objectClass=*", null);
        assertEquals(Filter.FILTER_TYPE_AND, f.getFilterType());
        assertEquals(2, f.getComponents().length);
        assertEquals("*)(|(objectClass=*", f.getComponents()[1].getAssertionValue());
    }

    @Test
    void filterWhenTheTemplateHasDnThenTheDnIsEscapedToo() throws LDAPException {
        Filter f = LdapValues.filter("(member={dn})", "x", "cn=a\\,b (c),dc=example");
        assertEquals("cn=a\\,b (c),dc=example", f.getAssertionValue());
    }

    @Test
    void guidWhenBinaryObjectGuidThenCanonicalStringWithTheFirstThreeFieldsByteSwapped() {
        byte[] stored = {(byte) 0xe0, 0x04, 0x25, 0x3f, (byte) 0x89, 0x4f, (byte) 0xd3, 0x11, (byte) 0x9a, 0x0c, 0x03,
            0x05, (byte) 0xe8, 0x2c, 0x33, 0x01};
        assertEquals("3f2504e0-4f89-11d3-9a0c-0305e82c3301", LdapValues.guid(stored));
        assertArrayEquals(stored, LdapValues.guidBytes("3F2504E0-4F89-11D3-9A0C-0305E82C3301"));
    }

    @Test
    void guidWhenNotSixteenBytesOrNotAGuidThenRefused() {
        assertThrows(IllegalArgumentException.class, () -> LdapValues.guid(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> LdapValues.guidBytes("3f2504e0-4f89-11d3-9a0c"));
        assertThrows(IllegalArgumentException.class, () -> LdapValues.guidBytes("zz2504e0-4f89-11d3-9a0c-0305e82c3301"));
    }

    @Test
    void activeDirectoryBindDiagnosticsTellDisabledLockedAndExpired() {
        String prefix = "80090308: LdapErr: DSID-0C09042A, comment: AcceptSecurityContext error, ";
        assertEquals(Directory.Outcome.INVALID, Directory.activeDirectoryRefusal(prefix + "data 52e, v3839"));
        assertEquals(Directory.Outcome.DISABLED, Directory.activeDirectoryRefusal(prefix + "data 533, v3839"));
        assertEquals(Directory.Outcome.LOCKED, Directory.activeDirectoryRefusal(prefix + "data 775, v3839"));
        assertEquals(Directory.Outcome.PASSWORD_EXPIRED, Directory.activeDirectoryRefusal(prefix + "data 532, v3839"));
        assertEquals(Directory.Outcome.PASSWORD_EXPIRED, Directory.activeDirectoryRefusal(prefix + "data 773, v3839"));
        assertEquals(Directory.Outcome.INVALID, Directory.activeDirectoryRefusal(null));
    }

    @Test
    void principalFilterEscapesThePrincipalAndItsAccountInOnePass() throws LDAPException {
        String template = "(|(userPrincipalName={0})(sAMAccountName={1}))";
        assertEquals("(|(userPrincipalName=carol@CORP.EXAMPLE)(sAMAccountName=carol))",
                LdapValues.principalFilter(template, "carol@CORP.EXAMPLE", "carol").toString());
        assertEquals("(|(userPrincipalName=\\2a)(uid=\\29\\28cn=\\2a))",
                LdapValues.principalFilter("(|(userPrincipalName={0})(uid={1}))", "*", ")(cn=*").toString());
        // a placeholder inside a value is part of the value, not replaced again
        assertEquals("(|(userPrincipalName=a{1}@R)(sAMAccountName=a{1}))",
                LdapValues.principalFilter(template, "a{1}@R", "a{1}").toString());
    }
}
