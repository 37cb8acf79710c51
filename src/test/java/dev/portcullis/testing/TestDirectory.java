package dev.portcullis.testing;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSimpleBindRequest;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldif.LDIFException;
import com.unboundid.util.ssl.KeyStoreKeyManager;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.cert.ManageCertificates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A real LDAP server in the test JVM (UnboundID's in-memory directory server) over TCP on 127.0.0.1, with three
 * listeners on fixed ports (so a stopped server comes back where it was): plain LDAP that also offers StartTLS,
 * and LDAPS. Its TLS certificate is generated for the test run (UnboundID's manage-certificates, the keytool of the
 * SDK) for {@code localhost} and {@code 127.0.0.1}; {@link #CA_FILE} is that certificate as PEM, the file Portcullis
 * is given as {@code portcullis.ldap.ca-file}. Two trees: an OpenLDAP-shaped one (inetOrgPerson, groupOfNames,
 * with the standard schema) and an Active Directory-shaped one (sAMAccountName, userPrincipalName, binary objectGUID,
 * memberOf with nested groups, userAccountControl; schema-less, as AD's attributes are not in the standard schema).
 * Every simple bind is recorded in {@link #binds}, so a test can prove who was bound as.
 */
public final class TestDirectory implements AutoCloseable {

    public static final String PASSWORD = "directory password 1";
    public static final String SERVICE_DN = "cn=portcullis,ou=services";
    public static final String SERVICE_PASSWORD = "service account secret";
    private static final char[] KEYSTORE_PASSWORD = "test-keystore".toCharArray();
    private static final Path TLS_DIR = Path.of("target", "ldap-tls");
    public static final Path CA_FILE = TLS_DIR.resolve("ca.pem").toAbsolutePath();
    private static final Path KEYSTORE = TLS_DIR.resolve("server.p12");
    private static final Path ANOTHER_HOST_KEYSTORE = TLS_DIR.resolve("elsewhere.p12");
    /** The host name {@link Tls#ANOTHER_HOST}'s certificate is for (and nothing else). */
    public static final String ANOTHER_HOST = "ldap.elsewhere.example";

    /** The AD entry's objectGUID and its canonical string, the {@code sub} of that user. */
    public static final String CAROL_GUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    private static final String CAROL_GUID_LDIF = "4AQlP4lP0xGaDAMF6CwzAQ==";

    public final String baseDn;
    public final int ldapPort;
    public final int ldapsPort;
    public final List<String> binds = Collections.synchronizedList(new ArrayList<>());
    private final InMemoryDirectoryServer server;

    /** How the server's listeners speak TLS. */
    public enum Tls {
        /** The certificate of {@link #CA_FILE}, for localhost and 127.0.0.1; StartTLS offered. */
        LOCALHOST,
        /** A certificate for another host name only ({@link #anotherHostCaFile()}); StartTLS offered. */
        ANOTHER_HOST,
        /** The certificate of {@link #CA_FILE}, but the plain listener refuses StartTLS. */
        NO_START_TLS
    }

    private TestDirectory(String baseDn, boolean schema, String ldif) {
        this(baseDn, schema, ldif, Tls.LOCALHOST);
    }

    private TestDirectory(String baseDn, boolean schema, String ldif, Tls tls) {
        this.baseDn = baseDn;
        try {
            generateCertificate();
            Path keystore = KEYSTORE;
            String alias = "server";
            if (tls == Tls.ANOTHER_HOST) {
                anotherHostCaFile();
                keystore = ANOTHER_HOST_KEYSTORE;
                alias = "elsewhere";
            }
            SSLUtil serverSsl = new SSLUtil(new KeyStoreKeyManager(keystore.toFile(), KEYSTORE_PASSWORD, "PKCS12",
                    alias), null);
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            ldapPort = freePort();
            ldapsPort = freePort();
            InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig(baseDn);
            if (!schema) {
                config.setSchema(null);
            }
            config.setListenerConfigs(
                    InMemoryListenerConfig.createLDAPConfig("ldap", loopback, ldapPort,
                            tls == Tls.NO_START_TLS ? null : serverSsl.createSSLSocketFactory()),
                    InMemoryListenerConfig.createLDAPSConfig("ldaps", loopback, ldapsPort,
                            serverSsl.createSSLServerSocketFactory(), null));
            config.addInMemoryOperationInterceptor(new InMemoryOperationInterceptor() {
                @Override
                public void processSimpleBindRequest(InMemoryInterceptedSimpleBindRequest request) {
                    binds.add(request.getRequest().getBindDN());
                }
            });
            config.addAdditionalBindCredentials(SERVICE_DN + "," + baseDn, SERVICE_PASSWORD);
            server = new InMemoryDirectoryServer(config);
            Path file = Files.createTempFile("directory", ".ldif");
            Files.writeString(file, ldif.replace("{base}", baseDn));
            server.importFromLDIF(true, file.toFile());
            Files.delete(file);
            server.startListening();
        } catch (LDAPException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** inetOrgPerson users alice, bob and "admin" under ou=people; groupOfNames under ou=groups. */
    public static TestDirectory openLdap() {
        return openLdap(Tls.LOCALHOST);
    }

    /** The OpenLDAP-shaped tree of {@link #openLdap()} behind listeners that speak TLS as {@code tls} says. */
    public static TestDirectory openLdap(Tls tls) {
        return new TestDirectory("dc=example,dc=org", true, """
                dn: {base}
                objectClass: top
                objectClass: domain
                dc: example

                dn: ou=people,{base}
                objectClass: organizationalUnit
                ou: people

                dn: uid=alice,ou=people,{base}
                objectClass: inetOrgPerson
                uid: alice
                cn: Alice Liddell
                givenName: Alice
                sn: Liddell
                mail: alice@example.org
                userPassword: %1$s

                dn: uid=bob,ou=people,{base}
                objectClass: inetOrgPerson
                uid: bob
                cn: Bob Builder
                sn: Builder
                userPassword: %1$s

                dn: uid=admin,ou=people,{base}
                objectClass: inetOrgPerson
                uid: admin
                cn: Directory Admin
                sn: Admin
                userPassword: admin password 1

                dn: ou=groups,{base}
                objectClass: organizationalUnit
                ou: groups

                dn: cn=engineers,ou=groups,{base}
                objectClass: groupOfNames
                cn: engineers
                member: uid=alice,ou=people,{base}

                dn: cn=staff,ou=groups,{base}
                objectClass: groupOfNames
                cn: staff
                member: uid=alice,ou=people,{base}
                member: uid=bob,ou=people,{base}
                """.formatted(PASSWORD), tls);
    }

    /**
     * Users carol (enabled, in Developers, which is in Engineering; a mobile number but no telephoneNumber, an
     * address as AD spells it, streetAddress), dave (disabled), erin (locked), frank (password
     * expired) under cn=Users; groups under ou=Groups; memberOf kept by hand as AD keeps it.
     */
    public static TestDirectory activeDirectory() {
        return new TestDirectory("dc=corp,dc=example,dc=com", false, """
                dn: {base}
                objectClass: top
                objectClass: domain
                dc: corp

                dn: cn=Users,{base}
                objectClass: container
                cn: Users

                dn: ou=Groups,{base}
                objectClass: organizationalUnit
                ou: Groups

                dn: cn=Engineering,ou=Groups,{base}
                objectClass: group
                cn: Engineering
                member: cn=Developers,ou=Groups,{base}

                dn: cn=Developers,ou=Groups,{base}
                objectClass: group
                cn: Developers
                member: cn=Carol Jones,cn=Users,{base}
                memberOf: cn=Engineering,ou=Groups,{base}

                dn: cn=Carol Jones,cn=Users,{base}
                objectClass: user
                cn: Carol Jones
                sAMAccountName: carol
                userPrincipalName: carol@corp.example.com
                objectGUID:: %2$s
                displayName: Carol Jones
                givenName: Carol
                sn: Jones
                mail: carol@corp.example.com
                mobile: +49 170 1234567
                streetAddress: 1 Main St
                l: Springfield
                st: CA
                postalCode: 94105
                c: US
                preferredLanguage: en-US
                mailNickname: cj
                memberOf: cn=Developers,ou=Groups,{base}
                userAccountControl: 512
                userPassword: %1$s

                dn: cn=Dave Disabled,cn=Users,{base}
                objectClass: user
                cn: Dave Disabled
                sAMAccountName: dave
                objectGUID:: AAAAAAAAAAAAAAAAAAAAAQ==
                userAccountControl: 514
                userPassword: %1$s

                dn: cn=Erin Locked,cn=Users,{base}
                objectClass: user
                cn: Erin Locked
                sAMAccountName: erin
                objectGUID:: AAAAAAAAAAAAAAAAAAAAAg==
                userAccountControl: 512
                msDS-User-Account-Control-Computed: 16
                userPassword: %1$s

                dn: cn=Frank Expired,cn=Users,{base}
                objectClass: user
                cn: Frank Expired
                sAMAccountName: frank
                objectGUID:: AAAAAAAAAAAAAAAAAAAAAw==
                userAccountControl: 512
                msDS-User-Account-Control-Computed: 8388608
                userPassword: %1$s
                """.formatted(PASSWORD, CAROL_GUID_LDIF));
    }

    /** A port on 127.0.0.1 where nothing listens: the failed first server of a failover list. */
    public static int deadPort() {
        try {
            return freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The system properties of a Portcullis using this directory's service account. */
    public List<String> serviceAccount() {
        return List.of("-Dportcullis.ldap.bind-dn=" + SERVICE_DN + "," + baseDn,
                "-Dportcullis.ldap.bind-password=" + SERVICE_PASSWORD);
    }

    /** Binds of anyone but the service account, from index {@code from} of {@link #binds} on. */
    public List<String> userBindsSince(int from) {
        synchronized (binds) {
            return binds.subList(from, binds.size()).stream()
                    .filter(dn -> !dn.equalsIgnoreCase(SERVICE_DN + "," + baseDn)).toList();
        }
    }

    /** Adds one entry, written as LDIF ({@code {base}} for the base DN). */
    public void add(String ldif) {
        try {
            server.add(ldif.replace("{base}", baseDn).strip().split("\n"));
        } catch (LDAPException | LDIFException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Replaces one attribute's values of an entry. */
    public void replace(String dn, String attribute, String... values) {
        try {
            server.modify(dn, new Modification(ModificationType.REPLACE, attribute, values));
        } catch (LDAPException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes every listener and connection: the directory is down. */
    public void stop() {
        server.shutDown(true);
    }

    /** Opens the listeners again on the same ports. */
    public void start() {
        try {
            server.startListening();
        } catch (LDAPException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.shutDown(true);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** A self-signed certificate for localhost and 127.0.0.1, made once per build. */
    private static synchronized void generateCertificate() throws IOException {
        if (Files.exists(CA_FILE)) {
            return;
        }
        Files.createDirectories(TLS_DIR);
        Files.deleteIfExists(KEYSTORE);
        run("generate-self-signed-certificate", "--keystore", KEYSTORE.toString(), "--keystore-password",
                new String(KEYSTORE_PASSWORD), "--keystore-type", "PKCS12", "--alias", "server", "--subject-dn",
                "CN=localhost", "--subject-alternative-name-dns", "localhost", "--subject-alternative-name-ip-address", "127.0.0.1", "--days-valid", "30");
        run("export-certificate", "--keystore", KEYSTORE.toString(), "--keystore-password",
                new String(KEYSTORE_PASSWORD), "--alias", "server", "--output-format", "PEM", "--output-file",
                CA_FILE.toString());
    }

    /** A PEM file with a certificate from another CA (another self-signed one, for the same names). */
    public static synchronized Path otherCaFile() {
        Path pem = TLS_DIR.resolve("other-ca.pem").toAbsolutePath();
        if (!Files.exists(pem)) {
            Path keystore = TLS_DIR.resolve("other.p12");
            try {
                Files.createDirectories(TLS_DIR);
                Files.deleteIfExists(keystore);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            run("generate-self-signed-certificate", "--keystore", keystore.toString(), "--keystore-password",
                    new String(KEYSTORE_PASSWORD), "--keystore-type", "PKCS12", "--alias", "other", "--subject-dn",
                    "CN=localhost", "--subject-alternative-name-dns", "localhost", "--subject-alternative-name-ip-address", "127.0.0.1");
            run("export-certificate", "--keystore", keystore.toString(), "--keystore-password",
                    new String(KEYSTORE_PASSWORD), "--alias", "other", "--output-format", "PEM", "--output-file",
                    pem.toString());
        }
        return pem;
    }

    /**
     * The PEM file of a self-signed certificate for {@link #ANOTHER_HOST} only, the certificate of
     * {@link Tls#ANOTHER_HOST}'s listeners: trusted as a CA, it still does not name 127.0.0.1 or localhost.
     */
    public static synchronized Path anotherHostCaFile() {
        Path pem = TLS_DIR.resolve("elsewhere.pem").toAbsolutePath();
        if (!Files.exists(pem)) {
            try {
                Files.createDirectories(TLS_DIR);
                Files.deleteIfExists(ANOTHER_HOST_KEYSTORE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            run("generate-self-signed-certificate", "--keystore", ANOTHER_HOST_KEYSTORE.toString(),
                    "--keystore-password", new String(KEYSTORE_PASSWORD), "--keystore-type", "PKCS12", "--alias",
                    "elsewhere", "--subject-dn", "CN=" + ANOTHER_HOST, "--subject-alternative-name-dns", ANOTHER_HOST,
                    "--days-valid", "30");
            run("export-certificate", "--keystore", ANOTHER_HOST_KEYSTORE.toString(), "--keystore-password",
                    new String(KEYSTORE_PASSWORD), "--alias", "elsewhere", "--output-format", "PEM", "--output-file",
                    pem.toString());
        }
        return pem;
    }

    private static void run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultCode rc = ManageCertificates.main(null, out, out, args);
        if (rc != ResultCode.SUCCESS) {
            throw new IllegalStateException("manage-certificates " + args[0] + ": " + out);
        }
    }
}
