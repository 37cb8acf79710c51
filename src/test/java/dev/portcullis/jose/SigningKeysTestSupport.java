package dev.portcullis.jose;

import dev.portcullis.config.PortcullisConfig;
import java.time.Clock;

/** Builds {@link SigningKeys} and {@link TokenMinter} over an in-memory key table, for unit tests in other packages. */
public final class SigningKeysTestSupport {

    private SigningKeysTestSupport() {
    }

    public static SigningKeys inMemory(PortcullisConfig config, Clock clock) {
        SigningKeys k = new SigningKeys();
        k.store = new SigningKeysTest.FakeStore();
        k.config = config;
        k.clock = clock;
        k.init();
        return k;
    }

    public static void wire(TokenMinter minter, SigningKeys keys, PortcullisConfig config) {
        minter.keys = keys;
        minter.config = config;
    }
}
