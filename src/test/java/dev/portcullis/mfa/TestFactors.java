package dev.portcullis.mfa;

import dev.portcullis.persistence.Jdbc;

/** The second factors' database owners wired by hand, for unit tests. */
final class TestFactors {

    private TestFactors() {
    }

    static SecondFactorRepository codes(Jdbc jdbc) {
        SecondFactorRepository r = new SecondFactorRepository();
        r.jdbc = jdbc;
        return r;
    }

    static PasskeyRepository passkeys(Jdbc jdbc) {
        PasskeyRepository r = new PasskeyRepository();
        r.jdbc = jdbc;
        return r;
    }
}
