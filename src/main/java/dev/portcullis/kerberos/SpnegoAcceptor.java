package dev.portcullis.kerberos;

import dev.portcullis.config.KerberosSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.File;
import java.security.PrivilegedExceptionAction;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;

/**
 * Verifies one SPNEGO token (the browser's first and only Negotiate leg) with the JDK's GSS-API against the service
 * key in the keytab: the acceptor credential comes from a {@link Subject} holding the service principal and its
 * {@link KeyTab} (no JAAS login configuration), so {@code javax.security.auth.useSubjectCredsOnly} keeps its default.
 * A token that needs another round trip is refused: the pages keep no state between requests.
 */
@ApplicationScoped
public class SpnegoAcceptor {

    static final Oid SPNEGO = oid("1.3.6.1.5.5.2");
    static final Oid KERBEROS = oid("1.2.840.113554.1.2.2");
    static final Oid KRB5_PRINCIPAL_NAME = oid("1.2.840.113554.1.2.2.1");

    @Inject
    Optional<KerberosSettings> settings;

    /**
     * A verified token: the client principal, the mutual-authentication token to send back, if any, and the replay key
     * of its authenticator ({@link KerberosAuthenticator}).
     */
    public record Accepted(String clientPrincipal, Optional<byte[]> responseToken, String replayKey) {
    }

    /** Why a token was refused (never the token itself). */
    public static final class Refused extends Exception {
        public Refused(String reason) {
            super(reason);
        }
    }

    /** For CDI. */
    protected SpnegoAcceptor() {
    }

    /** An acceptor outside the container (tests). */
    public SpnegoAcceptor(KerberosSettings settings) {
        this.settings = Optional.of(settings);
    }

    public boolean configured() {
        return settings.isPresent();
    }

    public Accepted accept(byte[] token) throws Refused {
        KerberosSettings s = settings.orElseThrow(() -> new Refused("Kerberos is not configured"));
        KerberosPrincipal service = new KerberosPrincipal(s.principal(), KerberosPrincipal.KRB_NT_PRINCIPAL);
        Subject subject = new Subject(true, Set.of(service), Set.of(),
                Set.of(KeyTab.getInstance(service, new File(s.keytab().toString()))));
        try {
            return doAs(subject, () -> acceptAsService(s.principal(), token));
        } catch (GSSException e) {
            throw new Refused(e.getMajorString() + (e.getMinor() != 0 ? " (" + e.getMinorString() + ")" : ""));
        } catch (RuntimeException e) {
            // the JDK's decoders throw unchecked exceptions on some malformed tokens; any of them is a refusal
            throw new Refused("malformed token: " + e.getClass().getSimpleName());
        } catch (Refused e) {
            throw e;
        } catch (Exception e) {
            throw new Refused(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Accepted acceptAsService(String principal, byte[] token) throws GSSException, Refused {
        GSSManager manager = GSSManager.getInstance();
        GSSName name = manager.createName(principal, KRB5_PRINCIPAL_NAME);
        GSSCredential credential = manager.createCredential(name, GSSCredential.INDEFINITE_LIFETIME,
                new Oid[] {SPNEGO, KERBEROS}, GSSCredential.ACCEPT_ONLY);
        GSSContext context = manager.createContext(credential);
        try {
            byte[] out = context.acceptSecContext(token, 0, token.length);
            if (!context.isEstablished()) {
                throw new Refused("the token needs another round trip (not a Kerberos ticket)");
            }
            if (!KERBEROS.equals(context.getMech())) {
                throw new Refused("mechanism " + context.getMech() + " is not Kerberos 5");
            }
            String replayKey = KerberosAuthenticator.replayKey(token)
                    .orElseThrow(() -> new Refused("no Kerberos authenticator found in the token"));
            return new Accepted(context.getSrcName().toString(),
                    out == null || out.length == 0 ? Optional.empty() : Optional.of(out), replayKey);
        } finally {
            context.dispose();
        }
    }

    @SuppressWarnings("removal")
    private static <T> T doAs(Subject subject, PrivilegedExceptionAction<T> action) throws Exception {
        try {
            return Subject.doAs(subject, action);
        } catch (java.security.PrivilegedActionException e) {
            throw e.getException();
        }
    }

    static Oid oid(String s) {
        try {
            return new Oid(s);
        } catch (GSSException e) {
            throw new IllegalStateException(e);
        }
    }
}
