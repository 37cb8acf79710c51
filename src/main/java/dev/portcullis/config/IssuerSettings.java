package dev.portcullis.config;

import java.net.InetAddress;
import java.net.URI;

/**
 * {@code portcullis.issuer}: the issuer identifier (OIDC Core 3.1.2.1), base of every endpoint URL, without a
 * trailing slash. Whether it is https decides the cookies' {@code Secure} flag and HSTS.
 */
public record IssuerSettings(URI issuer) {

    static IssuerSettings load(PortcullisConfig.Source c) {
        String key = "portcullis.issuer";
        String raw = c.getOptionalValue(key).orElse("http://localhost:8080").trim();
        URI uri;
        try {
            uri = new URI(raw);
        } catch (Exception e) {
            throw new ConfigurationException(key, "is not a URL: '" + raw + "'");
        }
        PortcullisConfig.require(("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                && uri.getHost() != null, key, "must be an absolute http(s) URL, got '" + raw + "'");
        PortcullisConfig.require(uri.getQuery() == null && uri.getFragment() == null, key,
                "must not have a query or fragment");
        if (raw.endsWith("/")) {
            uri = URI.create(raw.substring(0, raw.length() - 1));
        }
        return new IssuerSettings(uri);
    }

    /** The issuer as a string, exactly as it appears in {@code iss} claims and the discovery document. */
    public String issuerString() {
        return issuer.toString();
    }

    /** Absolute URL of a path on this server, e.g. {@code endpoint("/oauth/token")}. */
    public String endpoint(String path) {
        return issuer + path;
    }

    public boolean isHttps() {
        return "https".equals(issuer.getScheme());
    }

    /** Whether the issuer's host is this machine only (localhost, 127.0.0.0/8, ::1): a developer's set-up. */
    public boolean isLoopback() {
        String host = issuer.getHost();
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        // literal addresses only: a name other than localhost is not resolved, since DNS may change after startup
        if (host.matches("[0-9.]+") || host.startsWith("[")) {
            try {
                return InetAddress.getByName(host).isLoopbackAddress();
            } catch (java.net.UnknownHostException e) {
                return false;
            }
        }
        return false;
    }
}
