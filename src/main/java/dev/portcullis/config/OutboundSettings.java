package dev.portcullis.config;

import java.util.List;

/**
 * {@code portcullis.outbound.allowed-networks}: the networks Portcullis's own outbound requests (a client's
 * {@code jwks_uri}, its {@code backchannel_logout_uri}) may reach. Empty, the default: every address except the
 * loopback, link-local, unspecified, multicast and reserved ranges and the cloud metadata addresses; set: only
 * addresses inside the listed networks, whatever their kind.
 */
public record OutboundSettings(List<AddressRange> allowedNetworks) {

    public OutboundSettings {
        allowedNetworks = List.copyOf(allowedNetworks);
    }

    static OutboundSettings load(PortcullisConfig.Source c) {
        return new OutboundSettings(AddressRange.parseList("portcullis.outbound.allowed-networks",
                c.getOptionalValue("portcullis.outbound.allowed-networks").orElse("")));
    }
}
