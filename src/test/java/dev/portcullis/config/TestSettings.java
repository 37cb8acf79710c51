package dev.portcullis.config;

import java.util.Map;
import java.util.Optional;

/**
 * Settings records for unit tests in any package, read and validated from a map of keys as a deployment would have
 * them: unset keys take their defaults.
 */
public final class TestSettings {

    private TestSettings() {
    }

    /** Every setting loaded from {@code values}, as the server loads them at start. */
    static PortcullisConfig load(Map<String, String> values) {
        PortcullisConfig c = new PortcullisConfig();
        c.load(key -> Optional.ofNullable(values.get(key)));
        return c;
    }

    public static TokenSettings tokens(Map<String, String> values) {
        return load(values).tokens;
    }

    public static KeySettings keys(Map<String, String> values) {
        return load(values).keys;
    }

    public static Optional<KerberosSettings> kerberos(Map<String, String> values) {
        return load(values).kerberos;
    }
}
