package dev.portcullis.session;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The authentication methods of a sign-in (RFC 8176 {@code amr} values) and the assurance level they reach
 * ({@code acr}). The session, the code and the grant hold them as a set in the order they were given, which is the
 * order of the {@code amr} claim (their columns: space-separated, {@code Jdbc.words}); {@code mfa} is not stored but
 * derived when the methods cover two kinds of factor (something known, something held, something the user is).
 */
public final class AuthMethods {

    /** Password only (or any single factor, such as a Kerberos ticket). */
    public static final String ACR_PWD = "urn:portcullis:acr:pwd";
    /** Two kinds of factor: password (or Kerberos) and one-time code, password and passkey, or a user-verifying passkey. */
    public static final String ACR_MFA = "urn:portcullis:acr:mfa";
    /** What discovery publishes as {@code acr_values_supported}, weakest first. */
    public static final List<String> ACR_VALUES = List.of(ACR_PWD, ACR_MFA);

    public static final String PWD = "pwd";
    public static final String OTP = "otp";
    public static final String HWK = "hwk";
    public static final String SWK = "swk";
    public static final String USER = "user";
    /** Windows integrated authentication (Kerberos / SPNEGO): one factor, what the user knows, like a password. */
    public static final String WIA = "wia";

    private static final Set<String> KNOWN = Set.of(PWD, OTP, HWK, SWK, USER, WIA);

    private AuthMethods() {
    }

    /** These methods, in this order (duplicates dropped). */
    public static Set<String> of(String... methods) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(methods)));
    }

    /** Whether the stored methods cover two kinds of factor. */
    public static boolean isMultiFactor(Set<String> amr) {
        boolean knows = amr.contains(PWD) || amr.contains(WIA);
        boolean holds = amr.contains(OTP) || amr.contains(HWK) || amr.contains(SWK);
        boolean is = amr.contains(USER);
        return (knows ? 1 : 0) + (holds ? 1 : 0) + (is ? 1 : 0) >= 2;
    }

    public static String acr(Set<String> amr) {
        return isMultiFactor(amr) ? ACR_MFA : ACR_PWD;
    }

    /**
     * The {@code amr} claim: the stored methods this server knows, in their order, plus {@code mfa} when they are
     * multi-factor.
     */
    public static List<String> claim(Set<String> amr) {
        List<String> out = new ArrayList<>(known(amr));
        if (isMultiFactor(amr)) {
            out.add("mfa");
        }
        return out;
    }

    /** The stored methods this server knows with {@code more} added (duplicates dropped, order kept). */
    public static Set<String> with(Set<String> amr, String... more) {
        Set<String> m = known(amr);
        m.addAll(List.of(more));
        return Collections.unmodifiableSet(m);
    }

    /** Whether {@code acrValues} (the request's preference list) asks for more than a password. */
    public static boolean asksForMultiFactor(List<String> acrValues) {
        return acrValues.contains(ACR_MFA);
    }

    private static Set<String> known(Set<String> amr) {
        Set<String> m = new LinkedHashSet<>();
        for (String s : amr) {
            if (KNOWN.contains(s)) {
                m.add(s);
            }
        }
        return m;
    }
}
