package dev.portcullis.session;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The authentication methods of a sign-in (RFC 8176 {@code amr} values) and the assurance level they reach
 * ({@code acr}). Stored space-separated with the session, the code and the grant; {@code mfa} is not stored but
 * derived when the methods cover two kinds of factor (something known, something held, something the user is).
 */
public final class AuthMethods {

    /** Password only (or any single factor). */
    public static final String ACR_PWD = "urn:portcullis:acr:pwd";
    /** Two kinds of factor: password and one-time code, password and passkey, or a user-verifying passkey. */
    public static final String ACR_MFA = "urn:portcullis:acr:mfa";
    /** What discovery publishes as {@code acr_values_supported}, weakest first. */
    public static final List<String> ACR_VALUES = List.of(ACR_PWD, ACR_MFA);

    public static final String PWD = "pwd";
    public static final String OTP = "otp";
    public static final String HWK = "hwk";
    public static final String SWK = "swk";
    public static final String USER = "user";

    private static final Set<String> KNOWN = Set.of(PWD, OTP, HWK, SWK, USER);

    private AuthMethods() {
    }

    /** Whether the stored methods cover two kinds of factor. */
    public static boolean isMultiFactor(String amr) {
        Set<String> m = parse(amr);
        boolean knows = m.contains(PWD);
        boolean holds = m.contains(OTP) || m.contains(HWK) || m.contains(SWK);
        boolean is = m.contains(USER);
        return (knows ? 1 : 0) + (holds ? 1 : 0) + (is ? 1 : 0) >= 2;
    }

    public static String acr(String amr) {
        return isMultiFactor(amr) ? ACR_MFA : ACR_PWD;
    }

    /** The {@code amr} claim: the stored methods, plus {@code mfa} when they are multi-factor. */
    public static List<String> claim(String amr) {
        List<String> out = new ArrayList<>(parse(amr));
        if (isMultiFactor(amr)) {
            out.add("mfa");
        }
        return out;
    }

    /** The stored methods with {@code more} added (duplicates dropped, order kept). */
    public static String with(String amr, String... more) {
        Set<String> m = parse(amr);
        m.addAll(List.of(more));
        return String.join(" ", m);
    }

    /** Whether {@code acrValues} (the request's preference list) asks for more than a password. */
    public static boolean asksForMultiFactor(List<String> acrValues) {
        return acrValues.contains(ACR_MFA);
    }

    private static Set<String> parse(String amr) {
        Set<String> m = new LinkedHashSet<>();
        if (amr != null) {
            for (String s : amr.split(" ")) {
                if (KNOWN.contains(s)) {
                    m.add(s);
                }
            }
        }
        return m;
    }
}
