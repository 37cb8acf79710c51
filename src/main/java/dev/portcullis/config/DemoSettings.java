package dev.portcullis.config;

import java.nio.file.Path;

/**
 * {@code portcullis.demo}: demo mode seeds a demo user and two clients at startup, writes their credentials into
 * {@code dataDir}, and serves the relying-party page at /demo/. {@code force} allows it with an issuer that is not
 * loopback (otherwise refused at startup).
 */
public record DemoSettings(boolean enabled, boolean force, Path dataDir) {

    static DemoSettings load(PortcullisConfig.Source c, IssuerSettings issuer) {
        boolean demo = PortcullisConfig.bool(c, "portcullis.demo", false);
        boolean force = PortcullisConfig.bool(c, "portcullis.demo.force", false);
        // demo mode seeds a user and clients whose credentials sit in a file on the server: a developer's machine only
        PortcullisConfig.require(!demo || issuer.isLoopback() || force, "portcullis.demo",
                "must not be enabled with an issuer that is not loopback (" + issuer.issuer() + "); set "
                        + "portcullis.demo.force=true if this really is a demo");
        return new DemoSettings(demo, force, PortcullisConfig.dataDir(c));
    }
}
