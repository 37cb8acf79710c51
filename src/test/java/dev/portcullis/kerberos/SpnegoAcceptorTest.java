package dev.portcullis.kerberos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.config.KerberosSettings;
import dev.portcullis.testing.TestKdc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The acceptor against tokens made by real clients: a real MIT KDC ({@link TestKdc}) and Debian's curl with
 * {@code --negotiate}, whose {@code Authorization} header {@link TestKdc#negotiateHeader} captures.
 */
class SpnegoAcceptorTest {

    private static TestKdc kdc;
    private static SpnegoAcceptor acceptor;
    private static Path carol;
    private static Path eve;

    @BeforeAll
    static void start() throws Exception {
        kdc = TestKdc.start();
        kdc.addUser("carol", "carol's kerberos password");
        kdc.addService("HTTP/elsewhere.test@" + TestKdc.REALM);
        carol = kdc.kinit("carol", "carol's kerberos password");
        kdc.addUser(TestKdc.OTHER_REALM, "eve", "eve's kerberos password");
        eve = kdc.kinit(TestKdc.OTHER_REALM, "eve", "eve's kerberos password");
        System.setProperty("java.security.krb5.conf", kdc.krb5Conf.toString());
        acceptor = new SpnegoAcceptor(new KerberosSettings(kdc.keytab, TestKdc.SERVICE, Optional.of(kdc.krb5Conf),
                List.of(TestKdc.REALM), KerberosSettings.DEFAULT_USER_FILTER, Map.of(), List.of()));
    }

    @AfterAll
    static void stop() {
        if (kdc != null) {
            kdc.close();
        }
    }

    /** The header curl sends to {@code host} with carol's ticket cache. */
    private static String curlsHeader(String host) {
        return kdc.negotiateHeader(carol, host);
    }

    @Test
    void acceptWhenCurlsTicketForTheServiceThenTheClientPrincipalAndAMutualToken() throws Exception {
        NegotiateHeader header = NegotiateHeader.parse(curlsHeader("localhost"));
        assertEquals(NegotiateHeader.Kind.TOKEN, header.kind());
        SpnegoAcceptor.Accepted accepted = acceptor.accept(header.token());
        assertEquals("carol@" + TestKdc.REALM, accepted.clientPrincipal());
        assertNotNull(accepted.responseToken().orElse(null));
    }

    @Test
    void acceptWhenACrossRealmTicketThenItsPrincipalWithItsRealm() throws Exception {
        // the acceptor names the principal with its realm; PrincipalLookup decides whom that may be
        NegotiateHeader header = NegotiateHeader.parse(kdc.negotiateHeader(eve, "localhost"));
        assertEquals("eve@" + TestKdc.OTHER_REALM, acceptor.accept(header.token()).clientPrincipal());
    }

    @Test
    void replayKeyWhenTheSameAuthenticatorInAnotherWrappingThenTheSameKeyAndTheJdkAgrees() throws Exception {
        byte[] spnego = NegotiateHeader.parse(curlsHeader("localhost")).token();
        byte[] kerberos = innerKerberosToken(spnego);
        // the bare Kerberos token is another byte string that the acceptor takes as well: a hash of the whole token
        // would not see the replay
        SpnegoAcceptor.Accepted accepted = acceptor.accept(kerberos);
        assertEquals("carol@" + TestKdc.REALM, accepted.clientPrincipal());
        assertEquals(KerberosAuthenticator.replayKey(spnego).orElseThrow(), accepted.replayKey());
        assertEquals(43, accepted.replayKey().length(), "base64url of SHA-256");
        // the JDK's replay cache (this JVM only) keys on the authenticator too, so the SPNEGO original is a replay
        SpnegoAcceptor.Refused replay = assertThrows(SpnegoAcceptor.Refused.class, () -> acceptor.accept(spnego));
        assertTrue(replay.getMessage().contains("replay"), replay::getMessage);
    }

    @Test
    void replayKeyWhenTwoTicketsOfOneUserThenTwoKeys() throws Exception {
        byte[] first = NegotiateHeader.parse(curlsHeader("localhost")).token();
        byte[] second = NegotiateHeader.parse(curlsHeader("localhost")).token();
        assertNotEquals(KerberosAuthenticator.replayKey(first).orElseThrow(),
                KerberosAuthenticator.replayKey(second).orElseThrow(), "a fresh authenticator per request");
    }

    @Test
    void replayKeyWhenNotAGssTokenWithAnApReqThenNone() throws Exception {
        byte[] spnego = NegotiateHeader.parse(curlsHeader("localhost")).token();
        byte[] trailing = Arrays.copyOf(spnego, spnego.length + 1);
        byte[] otherOid = spnego.clone();
        otherOid[11] ^= 1; // SPNEGO's OID 1.3.6.1.5.5.2 (60 82 xx xx 06 06 2b 06 01 05 05 02) becomes 1.3.6.1.5.5.3
        for (byte[] token : new byte[][] {{}, {0x60}, {0x60, 0x00}, {0x60, (byte) 0x80, 0x06, 0x00},
            {0x60, (byte) 0x85, 1, 1, 1, 1, 1}, Arrays.copyOf(spnego, spnego.length - 1), trailing, otherOid,
            "NTLMSSP\0".getBytes(StandardCharsets.ISO_8859_1), new byte[40_000]}) {
            assertEquals(Optional.empty(), KerberosAuthenticator.replayKey(token), () -> Arrays.toString(
                    Arrays.copyOf(token, Math.min(token.length, 12))));
        }
    }

    /** The Kerberos GSS-API token (60 .. 06 09 <Kerberos OID> 01 00 <AP-REQ>) in SPNEGO's mechToken. */
    private static byte[] innerKerberosToken(byte[] spnego) {
        byte[] marker = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x12, 0x01, 0x02, 0x02, 0x01,
            0x00};
        for (int i = 2; i + marker.length <= spnego.length; i++) {
            if (Arrays.equals(spnego, i, i + marker.length, marker, 0, marker.length)) {
                for (int start = i - 1; start >= Math.max(0, i - 4); start--) {
                    if (spnego[start] == 0x60) {
                        int lengthBytes = (spnego[start + 1] & 0x80) == 0 ? 0 : spnego[start + 1] & 0x7f;
                        if (start + 2 + lengthBytes != i) {
                            continue;
                        }
                        int length = lengthBytes == 0 ? spnego[start + 1] : 0;
                        for (int b = 0; b < lengthBytes; b++) {
                            length = length << 8 | (spnego[start + 2 + b] & 0xff);
                        }
                        return Arrays.copyOfRange(spnego, start, i + length);
                    }
                }
            }
        }
        throw new AssertionError("no Kerberos token in the SPNEGO token");
    }

    @Test
    void acceptWhenTicketForAnotherServiceThenRefused() throws Exception {
        NegotiateHeader header = NegotiateHeader.parse(curlsHeader("elsewhere.test"));
        assertEquals(NegotiateHeader.Kind.TOKEN, header.kind());
        assertThrows(SpnegoAcceptor.Refused.class, () -> acceptor.accept(header.token()));
    }

    @Test
    void acceptWhenGarbageThenRefusedNotAnException() {
        for (byte[] token : new byte[][] {{0x60}, {0x60, 0x05, 0x06, 0x03, 0x2b, 0x06, 0x01}, {1, 2, 3, 4},
            "NTLMSSP\0".getBytes(StandardCharsets.ISO_8859_1), new byte[40_000]}) {
            assertThrows(SpnegoAcceptor.Refused.class, () -> acceptor.accept(token));
        }
    }
}
