package dev.portcullis.jose;

import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.KeySettings;
import dev.portcullis.config.TokenSettings;
import java.time.Clock;

/** Builds {@link SigningKeyService} and {@link TokenMinter} over an in-memory key table, for unit tests in other packages. */
public final class SigningKeyServiceTestSupport {

    private SigningKeyServiceTestSupport() {
    }

    public static SigningKeyService inMemory(IssuerSettings issuer, TokenSettings tokens, KeySettings keys, Clock clock) {
        SigningKeyService k = new SigningKeyService();
        k.store = new SigningKeyServiceTest.FakeStore();
        k.issuer = issuer;
        k.tokenSettings = tokens;
        k.keySettings = keys;
        k.clock = clock;
        k.init();
        return k;
    }

    public static void wire(TokenMinter minter, SigningKeyService keys, IssuerSettings issuer, TokenSettings tokens) {
        minter.keys = keys;
        minter.issuer = issuer;
        minter.tokenSettings = tokens;
    }
}
