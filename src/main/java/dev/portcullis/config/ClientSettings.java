package dev.portcullis.config;

/**
 * {@code portcullis.redirect.allow-http}: the opt-in for intranet backends on plain http (a documented risk),
 * letting clients register non-loopback http redirect URIs.
 */
public record ClientSettings(boolean redirectAllowHttp) {

    static ClientSettings load(PortcullisConfig.Source c) {
        return new ClientSettings(PortcullisConfig.bool(c, "portcullis.redirect.allow-http", false));
    }
}
