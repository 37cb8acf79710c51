package dev.portcullis.config;

import java.util.List;
import java.util.Optional;

/**
 * {@code GET /metrics}: off unless {@code portcullis.metrics.enabled}; then open to a request bearing
 * {@code portcullis.metrics.token} or coming from one of {@code portcullis.metrics.networks} (the client address as
 * {@code protocol.ClientAddress} resolves it behind trusted proxies), and to nothing else. Enabled with neither is a
 * configuration error, since such an endpoint could answer no one. {@code portcullis.metrics.client-labels} adds the
 * client id as a label to the per-client counters (off by default: one series per client).
 */
public record MetricsSettings(boolean enabled, Optional<String> token, List<AddressRange> networks,
                              boolean clientLabels) {

    static final int MIN_TOKEN_LENGTH = 32;

    public MetricsSettings {
        networks = List.copyOf(networks);
    }

    static MetricsSettings load(PortcullisConfig.Source c) {
        boolean enabled = PortcullisConfig.bool(c, "portcullis.metrics.enabled", false);
        Optional<String> token = c.getOptionalValue("portcullis.metrics.token").map(String::trim)
                .filter(s -> !s.isEmpty());
        token.ifPresent(t -> PortcullisConfig.require(t.length() >= MIN_TOKEN_LENGTH, "portcullis.metrics.token",
                "must be at least " + MIN_TOKEN_LENGTH + " characters (generate one with: openssl rand -base64 32)"));
        List<AddressRange> networks = AddressRange.parseList("portcullis.metrics.networks",
                c.getOptionalValue("portcullis.metrics.networks").orElse(""));
        PortcullisConfig.require(!enabled || token.isPresent() || !networks.isEmpty(), "portcullis.metrics.enabled",
                "needs portcullis.metrics.token or portcullis.metrics.networks, or nobody may read the metrics");
        boolean clientLabels = PortcullisConfig.bool(c, "portcullis.metrics.client-labels", false);
        return new MetricsSettings(enabled, token, networks, clientLabels);
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "MetricsSettings[enabled=" + enabled + ", token=" + (token.isPresent() ? "(set)" : "(unset)")
                + ", networks=" + networks + ", clientLabels=" + clientLabels + "]";
    }
}
