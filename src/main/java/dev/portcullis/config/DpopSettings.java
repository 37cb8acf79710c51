package dev.portcullis.config;

import java.time.Duration;

/**
 * DPoP (RFC 9449): {@code portcullis.dpop.proof-max-age}, how long after its {@code iat} a proof is accepted (its
 * {@code jti} is kept that long to refuse a second use), and {@code portcullis.dpop.nonce-required}, whether every
 * proof must carry a server nonce (RFC 9449 8, 9).
 */
public record DpopSettings(Duration proofMaxAge, boolean nonceRequired) {

    static DpopSettings load(PortcullisConfig.Source c) {
        return new DpopSettings(PortcullisConfig.seconds(c, "portcullis.dpop.proof-max-age", 60, 5, 600),
                PortcullisConfig.bool(c, "portcullis.dpop.nonce-required", false));
    }
}
