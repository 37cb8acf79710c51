package dev.portcullis.testing;

import java.io.File;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of every integration test: Arquillian starts a real Payara Micro with the built WAR (target/portcullis.war,
 * deployed as ROOT.war so it serves at "/") and the tests speak HTTP to it at {@link #BASE}. The connector starts
 * one Payara Micro per test class, so each test class covers a whole feature.
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
