package dev.portcullis.outbound;

import dev.portcullis.config.AddressRange;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses Portcullis's outbound requests may reach. By default every address except those that are never a
 * relying party's: loopback (127.0.0.0/8, ::1), link-local (169.254.0.0/16, where clouds serve instance metadata and
 * credentials; fe80::/10), unspecified (0.0.0.0/8, ::), multicast (224.0.0.0/4, ff00::/8), reserved and broadcast
 * (240.0.0.0/4), and the cloud metadata addresses outside those ranges (fd00:ec2::254, 100.100.100.200). An IPv6
 * address that carries an IPv4 one (IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by both.
 * Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) stay reachable: on an intranet the relying parties live
 * there. With {@code portcullis.outbound.allowed-networks} set, exactly the addresses inside those networks are
 * reachable, whatever their kind.
 */
public final class OutboundAddressPolicy {

    private record Refused(AddressRange range, String kind) {
    }

    private static final List<Refused> REFUSED_BY_DEFAULT = List.of(
            new Refused(AddressRange.parse("0.0.0.0/8"), "unspecified"),
            new Refused(AddressRange.parse("127.0.0.0/8"), "loopback"),
            new Refused(AddressRange.parse("169.254.0.0/16"), "link-local"),
            new Refused(AddressRange.parse("224.0.0.0/4"), "multicast"),
            new Refused(AddressRange.parse("240.0.0.0/4"), "reserved"),
            new Refused(AddressRange.parse("100.100.100.200/32"), "cloud metadata"),
            new Refused(AddressRange.parse("::/128"), "unspecified"),
            new Refused(AddressRange.parse("::1/128"), "loopback"),
            new Refused(AddressRange.parse("fe80::/10"), "link-local"),
            new Refused(AddressRange.parse("ff00::/8"), "multicast"),
            new Refused(AddressRange.parse("fd00:ec2::254/128"), "cloud metadata"));

    private static final AddressRange IPV4_COMPATIBLE = AddressRange.parse("::/96");
    private static final AddressRange NAT64 = AddressRange.parse("64:ff9b::/96");
    private static final AddressRange SIX_TO_FOUR = AddressRange.parse("2002::/16");

    private final List<AddressRange> allowedNetworks;

    /** {@code allowedNetworks} empty: the default rules above; else only these networks. */
    public OutboundAddressPolicy(List<AddressRange> allowedNetworks) {
        this.allowedNetworks = List.copyOf(allowedNetworks);
    }

    /** Empty when {@code address} may be reached; else why not, e.g. "a loopback address (127.0.0.1)". */
    public Optional<String> refusal(InetAddress address) {
        if (address instanceof Inet6Address v6 && (v6.getScopeId() != 0 || v6.getScopedInterface() != null)) {
            return Optional.of("an address with a zone id (" + address.getHostAddress() + ")");
        }
        if (!allowedNetworks.isEmpty()) {
            return allowedNetworks.stream().anyMatch(n -> n.contains(address)) ? Optional.empty()
                    : Optional.of("an address outside portcullis.outbound.allowed-networks ("
                            + address.getHostAddress() + ")");
        }
        Optional<String> kind = refusedKind(address);
        if (kind.isEmpty()) {
            kind = embeddedIpv4(address).flatMap(OutboundAddressPolicy::refusedKind);
        }
        return kind.map(k -> "a" + (k.matches("[aeiou].*") ? "n " : " ") + k + " address ("
                + address.getHostAddress() + "), which only portcullis.outbound.allowed-networks can admit");
    }

    private static Optional<String> refusedKind(InetAddress address) {
        return REFUSED_BY_DEFAULT.stream().filter(r -> r.range().contains(address)).map(Refused::kind).findFirst();
    }

    /** The IPv4 address an IPv6 one carries by a standard mapping, if any. */
    static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] a = address.getAddress();
        byte[] v4;
        if (IPV4_COMPATIBLE.contains(address) || NAT64.contains(address)) {
            v4 = Arrays.copyOfRange(a, 12, 16);
        } else if (SIX_TO_FOUR.contains(address)) {
            v4 = Arrays.copyOfRange(a, 2, 6);
        } else {
            return Optional.empty();
        }
        try {
            return Optional.of((Inet4Address) InetAddress.getByAddress(v4));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
