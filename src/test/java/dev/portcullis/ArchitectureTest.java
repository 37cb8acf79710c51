package dev.portcullis;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.TryCatchBlock;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import dev.portcullis.persistence.Jdbc;
import dev.portcullis.protocol.ErrorBody;
import dev.portcullis.protocol.OAuthException;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The package rules of docs/decisions.md ("Packages"), checked on the compiled classes: primitives at the bottom,
 * features above them without cycles, the application assembly ({@code app}) on top, and the sign-in pages above
 * the flows they drive; and the persistence rule ("Who owns which table"): every table has one owner class and one
 * access technology.
 */
@AnalyzeClasses(packages = "dev.portcullis", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** Protocol primitives and infrastructure: usable by every feature, aware of none. */
    static final String[] PRIMITIVES = {"dev.portcullis.protocol..", "dev.portcullis.page..",
        "dev.portcullis.config..", "dev.portcullis.crypto..", "dev.portcullis.persistence..",
        "dev.portcullis.outbound..", "dev.portcullis.metrics.."};

    /** Capabilities: each owns its tables, endpoints and pages. */
    static final String[] FEATURES = {"dev.portcullis.access..", "dev.portcullis.account..", "dev.portcullis.admin..",
        "dev.portcullis.api..", "dev.portcullis.audit..",
        "dev.portcullis.authorize..", "dev.portcullis.client..", "dev.portcullis.consent..", "dev.portcullis.demo..",
        "dev.portcullis.directory..", "dev.portcullis.discovery..", "dev.portcullis.dpop..", "dev.portcullis.health..", "dev.portcullis.jose..",
        "dev.portcullis.kerberos..", "dev.portcullis.mfa..", "dev.portcullis.tokenuse..", "dev.portcullis.retention..", "dev.portcullis.session..",
        "dev.portcullis.signin..", "dev.portcullis.token..", "dev.portcullis.accountpage..", "dev.portcullis.console..",
        "dev.portcullis.declarative.."};

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

    /** The screen families: the sign-in interaction, the account pages and the console. */
    static final String[] PAGES = {"dev.portcullis.signin..", "dev.portcullis.accountpage..",
        "dev.portcullis.console.."};

    /** Pages sit above the flows and services they drive; no flow, service or store ever reaches up to a page. */
    @ArchTest
    static final ArchRule servicesDoNotKnowThePages = noClasses().that()
            .resideOutsideOfPackages(concat(PAGES, "dev.portcullis.app.."))
            .should().dependOnClassesThat().resideInAnyPackage(PAGES);

    /** The account pages and the console are siblings on the sign-in: neither borrows from the other. */
    @ArchTest
    static final ArchRule accountPagesAndConsoleAreSiblings = noClasses().that()
            .resideInAPackage("dev.portcullis.accountpage..")
            .should().dependOnClassesThat().resideInAPackage("dev.portcullis.console..");

    @ArchTest
    static final ArchRule consoleAndAccountPagesAreSiblings = noClasses().that()
            .resideInAPackage("dev.portcullis.console..")
            .should().dependOnClassesThat().resideInAPackage("dev.portcullis.accountpage..");

    /** The sign-in interaction is below the screens that are reached through it. */
    @ArchTest
    static final ArchRule signInKnowsNoScreenBehindIt = noClasses().that().resideInAPackage("dev.portcullis.signin..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.portcullis.accountpage..",
                    "dev.portcullis.console..");

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

    /**
     * Settings by concern: a class injects the records it reads ({@code TokenSettings}, {@code KeySettings}, ...);
     * only the config package knows the loader that reads MicroProfile Config and produces them.
     */
    @ArchTest
    static final ArchRule onlyConfigKnowsTheSettingsLoader = noClasses().that()
            .resideOutsideOfPackage("dev.portcullis.config..")
            .should().dependOnClassesThat().haveFullyQualifiedName("dev.portcullis.config.PortcullisConfig");

    /** The audit trail and throttling see the client behind a trusted proxy, so nothing reads the peer directly. */
    @ArchTest
    static final ArchRule onlyClientAddressReadsThePeer = noClasses().that()
            .doNotHaveFullyQualifiedName("dev.portcullis.protocol.ClientAddress")
            .should().callMethod(jakarta.servlet.ServletRequest.class, "getRemoteAddr")
            .orShould().callMethod(jakarta.servlet.http.HttpServletRequest.class, "getRemoteAddr");

    /**
     * Every request Portcullis makes of a URL it was given goes through {@code outbound.OutboundHttp}, which checks
     * the address it connects to; no other class opens an HTTP connection or a socket of its own. The demo relying
     * party is the one exception: it calls this server's own issuer, never a registered URL.
     */
    @ArchTest
    static final ArchRule onlyOutboundMakesRequests = noClasses().that()
            .resideOutsideOfPackages("dev.portcullis.outbound..", "dev.portcullis.demo..")
            .should().dependOnClassesThat().resideInAPackage("java.net.http..")
            .orShould().dependOnClassesThat().areAssignableTo(java.net.Socket.class)
            .orShould().dependOnClassesThat().areAssignableTo(java.net.URLConnection.class)
            .orShould().callMethod(java.net.URL.class, "openConnection")
            .orShould().callMethod(java.net.URL.class, "openStream");

    /**
     * A change is validated and audited by the one service method that makes it; the console, the account page, the
     * sign-in pages and the admin API only translate what is asked and what is answered, so none of them records an
     * audit event.
     */
    @ArchTest
    static final ArchRule onlyServicesAuditChanges = noClasses().that()
            .resideInAnyPackage("dev.portcullis.accountpage..", "dev.portcullis.console..", "dev.portcullis.signin..")
            .or().haveSimpleNameEndingWith("AdminResource").or().haveSimpleName("MeResource")
            .should().callMethod(AuditLog.class, "change", AuditEvent.Type.class, Actor.class, String.class,
                    String.class, String.class)
            .orShould().callMethod(AuditLog.class, "success", AuditEvent.Type.class, String.class, String.class,
                    String.class, String.class)
            .orShould().callMethod(AuditLog.class, "failure", AuditEvent.Type.class, String.class, String.class,
                    String.class, String.class);

    /**
     * One way to refuse outside the protocol endpoints: the admin API's resources, {@code /api/v1} and the console
     * throw an {@code admin.Refusal} (one mapper answers it); none throws the protocol's {@code OAuthException} or
     * builds an error body of its own.
     */
    @ArchTest
    static final ArchRule theAdminSideRefusesWithRefusal = noClasses().that().haveSimpleNameEndingWith("AdminResource")
            .or().haveSimpleName("MeResource").or().resideInAPackage("dev.portcullis.console..")
            .should().dependOnClassesThat().areAssignableTo(OAuthException.class)
            .orShould().dependOnClassesThat().haveFullyQualifiedName(ErrorBody.class.getName());

    /** The console answers a refusal in one place, its form post; no page catches one itself. */
    @ArchTest
    static final ArchRule onlyTheConsoleFormCatchesRefusals = codeUnits().that().areDeclaredInClassesThat()
            .resideInAPackage("dev.portcullis.console..").and().areDeclaredInClassesThat()
            .doNotHaveFullyQualifiedName("dev.portcullis.console.ConsoleForm")
            .should(notCatch(Refusal.class));

    /** Hot-path tables: plain records, one plain-JDBC owner each ({@link TableOwnersTest} checks the SQL). */
    static final Map<String, String> JDBC_TABLE_OWNERS = Map.ofEntries(
            Map.entry("authorization_codes", "dev.portcullis.authorize.AuthorizationCodeRepository"),
            Map.entry("token_grants", "dev.portcullis.token.TokenGrantRepository"),
            Map.entry("access_tokens", "dev.portcullis.token.TokenGrantRepository"),
            Map.entry("refresh_tokens", "dev.portcullis.token.TokenGrantRepository"),
            Map.entry("sso_sessions", "dev.portcullis.session.SsoSessionRepository"),
            Map.entry("logout_deliveries", "dev.portcullis.session.LogoutDeliveryRepository"),
            Map.entry("audit_events", "dev.portcullis.audit.AuditEventRepository"),
            Map.entry("login_throttle", "dev.portcullis.account.ThrottleCounterRepository"),
            Map.entry("second_factor_throttle", "dev.portcullis.account.ThrottleCounterRepository"),
            Map.entry("totp_factors", "dev.portcullis.mfa.SecondFactorRepository"),
            Map.entry("recovery_codes", "dev.portcullis.mfa.SecondFactorRepository"),
            Map.entry("webauthn_credentials", "dev.portcullis.mfa.PasskeyRepository"),
            Map.entry("webauthn_challenges", "dev.portcullis.mfa.PasskeyRepository"),
            Map.entry("client_assertion_jtis", "dev.portcullis.token.ClientAssertionJtiRepository"),
            Map.entry("kerberos_authenticators", "dev.portcullis.kerberos.UsedAuthenticatorRepository"),
            Map.entry("pushed_authorization_requests", "dev.portcullis.authorize.PushedRequestRepository"),
            Map.entry("configuration_import_lock", "dev.portcullis.declarative.ConfigurationLockRepository"),
            Map.entry("request_object_jtis", "dev.portcullis.authorize.RequestObjectJtiRepository"),
            Map.entry("dpop_proof_jtis", "dev.portcullis.dpop.DpopProofJtiRepository"));

    /** The aggregates an administrator edits: JPA entities, one repository each. */
    static final Map<String, String> JPA_TABLE_OWNERS = Map.of(
            "apis", "dev.portcullis.api.ApiRepository",
            "clients", "dev.portcullis.client.ClientRepository",
            "users", "dev.portcullis.account.UserRepository",
            "consents", "dev.portcullis.consent.ConsentRepository",
            "signing_keys", "dev.portcullis.jose.SigningKeyRepository");

    @ArchTest
    static final ArchRule noClassUsesJdbcAndJpa = classes()
            .should(notDependOnBoth(Jdbc.class.getName(), EntityManager.class.getName()));

    @ArchTest
    static final ArchRule entitiesAreTheAdministeredAggregates = classes().that().areAnnotatedWith(Entity.class)
            .should().resideInAnyPackage("dev.portcullis.api", "dev.portcullis.client", "dev.portcullis.account",
                    "dev.portcullis.consent", "dev.portcullis.jose");

    @ArchTest
    static final ArchRule onlyTheJdbcOwnersRunStatements = methods().that().areDeclaredIn(Jdbc.class)
            .and().areNotStatic().should().onlyBeCalled()
            .byClassesThat(inAnyOf(Set.of(Jdbc.class.getName()), JDBC_TABLE_OWNERS.values()));

    @ArchTest
    static final ArchRule onlyTheJpaOwnersUseTheEntityManager = noClasses()
            .that(DescribedPredicate.not(inAnyOf(Set.of(), JPA_TABLE_OWNERS.values())))
            .should().dependOnClassesThat().areAssignableTo(EntityManager.class);

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** The class is one of {@code a} or {@code b}, or nested in one (lambdas and inner classes of an owner). */
    private static DescribedPredicate<JavaClass> inAnyOf(Collection<String> a, Collection<String> b) {
        Set<String> names = new HashSet<>(a);
        names.addAll(b);
        return DescribedPredicate.describe("are one of " + names,
                c -> names.contains(c.getName()) || names.contains(c.getName().replaceFirst("\\$.*", "")));
    }

    private static ArchCondition<JavaCodeUnit> notCatch(Class<? extends Throwable> type) {
        return new ArchCondition<>("not catch " + type.getName()) {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                for (TryCatchBlock block : unit.getTryCatchBlocks()) {
                    if (block.getCaughtThrowables().stream().anyMatch(t -> t.isAssignableTo(type))) {
                        events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " catches "
                                + type.getSimpleName()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> notDependOnBoth(String one, String other) {
        return new ArchCondition<>("not depend on both " + one + " and " + other) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                Set<String> targets = new HashSet<>();
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    targets.add(d.getTargetClass().getName());
                }
                if (targets.contains(one) && targets.contains(other)) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + " uses both " + one + " and " + other));
                }
            }
        };
    }
}
