package dev.portcullis.jose;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TokenSettings;
import java.time.Clock;

/** Builds {@link SigningKeys} and {@link TokenMinter} over an in-memory key table, for unit tests in other packages. */
public final class SigningKeysTestSupport {

    private SigningKeysTestSupport() {
    }

    public static SigningKeys inMemory(IssuerSettings issuer, TokenSettings tokens, KeySettings keys, Clock clock) {
        SigningKeys k = new SigningKeys();
        k.store = new SigningKeysTest.FakeStore();
        k.issuer = issuer;
        k.tokenSettings = tokens;
        k.keySettings = keys;
        k.clock = clock;
        k.init();
        return k;
    }

    public static void wire(TokenMinter minter, SigningKeys keys, IssuerSettings issuer, TokenSettings tokens) {
        minter.keys = keys;
        minter.issuer = issuer;
        minter.tokenSettings = tokens;
    }
}
