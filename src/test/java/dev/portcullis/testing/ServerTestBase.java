package dev.portcullis.testing;

import java.io.File;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of the integration tests that speak HTTP, at {@link #BASE}, to the run's one server: a real Payara Micro,
 * Payara Server or WildFly with the built WAR (target/portcullis.war) at "/" ({@link RunningServerContainer}). Every
 * such class of a run shares that server and its database, so a class makes its own users, clients and settings
 * under names of its own and asserts on its own rows.
 */
@ExtendWith(ArquillianExtension.class)
public abstract class ServerTestBase {

    /** e.g. http://localhost:41234 — also the issuer the server was started with. */
    protected static final String BASE = System.getProperty("portcullis.test.base-url");
    protected static final String ADMIN_TOKEN = System.getProperty("portcullis.test.admin-token");

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return war();
    }

    public static WebArchive war() {
        File war = new File(System.getProperty("portcullis.war", "target/portcullis.war"));
        return ShrinkWrap.create(ZipImporter.class, "ROOT.war").importFrom(war).as(WebArchive.class);
    }

    protected static Http http() {
        return new Http(BASE);
    }

    protected static Admin admin() {
        return new Admin(new Http(BASE), ADMIN_TOKEN);
    }
}
