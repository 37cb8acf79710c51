package dev.portcullis.config;

/**
 * {@code portcullis.mfa.*}: who must give a second factor at sign-in, and whether the login page offers signing in
 * with a passkey alone ({@code passwordless}).
 */
public record SecondFactorSettings(MfaRequired mfaRequired, boolean passwordless) {

    /** {@code portcullis.mfa.required}: who must give a second factor at sign-in. */
    public enum MfaRequired {
        /** Only where a client ({@code require_mfa}) or the request ({@code acr_values}) asks for it. */
        OFF,
        /** Every user who has a second factor gives it at every sign-in (and where clients ask). */
        ENROLLED,
        /** Everyone; a user without a factor enrols one at the next sign-in. */
        EVERYONE
    }

    static SecondFactorSettings load(PortcullisConfig.Source c) {
        String mfa = c.getOptionalValue("portcullis.mfa.required").map(String::trim).filter(v -> !v.isEmpty())
                .orElse("enrolled");
        PortcullisConfig.require(mfa.equals("off") || mfa.equals("enrolled") || mfa.equals("everyone"),
                "portcullis.mfa.required", "must be off, enrolled or everyone, got '" + mfa + "'");
        String pl = c.getOptionalValue("portcullis.mfa.passwordless").map(String::trim).filter(v -> !v.isEmpty())
                .orElse("false");
        PortcullisConfig.require(pl.equals("true") || pl.equals("false"), "portcullis.mfa.passwordless",
                "must be true or false, got '" + pl + "'");
        return new SecondFactorSettings(MfaRequired.valueOf(mfa.toUpperCase(java.util.Locale.ROOT)),
                Boolean.parseBoolean(pl));
    }
}
