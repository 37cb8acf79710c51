package dev.portcullis;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package rules of docs/decisions.md ("Packages"), checked on the compiled classes: primitives at the bottom,
 * features above them without cycles, the application assembly ({@code app}) on top, and the sign-in pages above
 * the flows they drive.
 */
@AnalyzeClasses(packages = "dev.portcullis", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** Protocol primitives and infrastructure: usable by every feature, aware of none. */
    static final String[] PRIMITIVES = {"dev.portcullis.protocol..", "dev.portcullis.page..",
        "dev.portcullis.config..", "dev.portcullis.crypto..", "dev.portcullis.persistence.."};

    /** Capabilities: each owns its tables, endpoints and pages. */
    static final String[] FEATURES = {"dev.portcullis.account..", "dev.portcullis.admin..", "dev.portcullis.audit..",
        "dev.portcullis.authorize..", "dev.portcullis.client..", "dev.portcullis.consent..", "dev.portcullis.demo..",
        "dev.portcullis.discovery..", "dev.portcullis.health..", "dev.portcullis.jose..", "dev.portcullis.resource..",
        "dev.portcullis.retention..", "dev.portcullis.session..", "dev.portcullis.signin..", "dev.portcullis.token.."};

    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices().matching("dev.portcullis.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule primitivesImportNoFeature = noClasses().that().resideInAnyPackage(PRIMITIVES)
            .should().dependOnClassesThat().resideInAnyPackage(FEATURES)
            .orShould().dependOnClassesThat().resideInAPackage("dev.portcullis.app..");

    @ArchTest
    static final ArchRule onlyTheAssemblyKnowsTheAssembly = noClasses().that()
            .resideOutsideOfPackage("dev.portcullis.app..")
            .should().dependOnClassesThat().resideInAPackage("dev.portcullis.app..");

    /** The sign-in and consent pages drive the flows; the flows and the session store never reach up to them. */
    @ArchTest
    static final ArchRule flowsDoNotKnowThePages = noClasses().that()
            .resideInAnyPackage("dev.portcullis.authorize..", "dev.portcullis.session..", "dev.portcullis.token..",
                    "dev.portcullis.consent..")
            .should().dependOnClassesThat().resideInAPackage("dev.portcullis.signin..");

    /** The SSO-session store is below the authorization flow that consults it. */
    @ArchTest
    static final ArchRule sessionStoreIsBelowTheFlow = noClasses().that().resideInAPackage("dev.portcullis.session..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.portcullis.authorize..", "dev.portcullis.token..");

    /**
     * HTML answers outside Faces come from the one escaping renderer; the rest of that rule (no other class writes a
     * document) is {@code HtmlPageTest.onlyTheRendererWritesHtmlDocuments}, since string constants leave no trace in
     * the bytecode.
     */
    @ArchTest
    static final ArchRule onlyTheRendererAnswersHtml = noClasses().that()
            .doNotHaveFullyQualifiedName("dev.portcullis.page.HtmlPage")
            .should().accessField(jakarta.ws.rs.core.MediaType.class, "TEXT_HTML_TYPE");
}
