package dev.portcullis.backend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WARs of {@link PayrollBackend} a test run deploys, each configured for this run's issuer by exactly the three
 * MicroProfile JWT settings README's "Validating tokens in your backend" names (plus the web.xml switch that makes
 * RESTEasy honour {@code @RolesAllowed}), and served at its name:
 * <ul>
 * <li>{@value #FOR_PORTCULLIS_API}: accepts Portcullis's default audience {@code <issuer>/api};</li>
 * <li>{@value #FOR_ANOTHER_API}: accepts another audience only, so it must refuse the same tokens, and accept a
 * token asked for that audience once it is a registered API;</li>
 * <li>on Payara, {@value #WITHOUT_VENDOR_FILE}: like the first without Payara's {@code payara-mp-jwt.properties},
 * whose {@code disable.type.verification=true} the first two carry there, because Payara's MP-JWT refuses every
 * token whose {@code typ} is not {@code JWT}, RFC 9068's {@code at+jwt} included (docs/servers.md).</li>
 * </ul>
 */
public final class BackendWars {

    public static final String FOR_PORTCULLIS_API = "mp-backend";
    public static final String FOR_ANOTHER_API = "mp-backend-other";
    public static final String WITHOUT_VENDOR_FILE = "mp-backend-plain";
    /**
     * The audience {@value #FOR_ANOTHER_API} accepts: no Portcullis token carries it until BackendTokenValidationIT
     * registers it as an API and asks for a token with {@code resource}.
     */
    public static final String ANOTHER_AUDIENCE = "https://another-api.example.com";

    private static final String WEB_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                <context-param>
                    <param-name>resteasy.role.based.security</param-name>
                    <param-value>true</param-value>
                </context-param>
                <security-role>
                    <role-name>payroll</role-name>
                </security-role>
            </web-app>
            """;

    private BackendWars() {
    }

    /** Writes the WARs for {@code issuer} into {@code dir}; {@code payara} adds the Payara variants above. */
    public static List<Path> export(Path dir, String issuer, boolean payara) {
        List<Path> wars = new ArrayList<>();
        wars.add(export(dir, war(FOR_PORTCULLIS_API, issuer, issuer + "/api", payara)));
        wars.add(export(dir, war(FOR_ANOTHER_API, issuer, ANOTHER_AUDIENCE, payara)));
        if (payara) {
            wars.add(export(dir, war(WITHOUT_VENDOR_FILE, issuer, issuer + "/api", false)));
        }
        return wars;
    }

    static WebArchive war(String name, String issuer, String audience, boolean payaraTypeCheckOff) {
        WebArchive war = ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(PayrollBackend.class, WhoAmIResource.class)
                .addAsResource(new StringAsset(String.join("\n",
                        "mp.jwt.verify.publickey.location=" + issuer + "/oauth/discovery/keys",
                        "mp.jwt.verify.issuer=" + issuer,
                        "mp.jwt.verify.audiences=" + audience) + "\n"), "META-INF/microprofile-config.properties")
                // RESTEasy (WildFly) enforces @RolesAllowed only when told to, as WildFly's own MP-JWT quickstart does;
                // Jersey (Payara) ignores the parameter and enforces it anyway
                .addAsWebInfResource(new StringAsset(WEB_XML), "web.xml");
        if (payaraTypeCheckOff) {
            war.addAsResource(new StringAsset("disable.type.verification=true\n"), "payara-mp-jwt.properties");
        }
        return war;
    }

    private static Path export(Path dir, WebArchive war) {
        Path file = dir.resolve(war.getName());
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
