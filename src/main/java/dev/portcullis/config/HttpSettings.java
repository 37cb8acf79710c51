package dev.portcullis.config;

import java.time.Duration;
import java.util.List;

/**
 * What the HTTP layer needs: the largest request body (larger ones get 413 before they are read); the reverse
 * proxies whose {@code Forwarded} / {@code X-Forwarded-For} headers name the client (empty, the default: the direct
 * peer is the client and those headers are ignored); and the {@code Cache-Control} max-age of the discovery document
 * and the JWKS.
 */
public record HttpSettings(int maxBodyBytes, List<AddressRange> trustedProxies, Duration metadataMaxAge) {

    public HttpSettings {
        trustedProxies = List.copyOf(trustedProxies);
    }

    static HttpSettings load(PortcullisConfig.Source c) {
        int maxBodyBytes = PortcullisConfig.integer(c, "portcullis.http.max-body-bytes", 65_536, 1_024, 10_485_760);
        List<AddressRange> trustedProxies = AddressRange.parseList("portcullis.http.trusted-proxies",
                c.getOptionalValue("portcullis.http.trusted-proxies").orElse(""));
        Duration metadataMaxAge = PortcullisConfig.seconds(c, "portcullis.discovery.max-age", 300, 0, 86_400);
        return new HttpSettings(maxBodyBytes, trustedProxies, metadataMaxAge);
    }
}
