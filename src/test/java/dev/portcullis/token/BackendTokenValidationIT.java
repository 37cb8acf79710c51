package dev.portcullis.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.testing.Db;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.JwkSetUriJwtDecoderBuilderCustomizer;
import org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.portcullis.backend.BackendWars;
import dev.portcullis.testing.Admin;
import dev.portcullis.testing.CodeFixture;
import dev.portcullis.testing.Http;
import dev.portcullis.testing.PayaraProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Portcullis's access tokens as a backend nobody here wrote sees them: {@link dev.portcullis.backend.PayrollBackend},
 * a MicroProfile JWT Auth WAR configured with the JWKS URL, issuer and audience only, on the server's own MP-JWT
 * implementation: in a Payara Micro of its own on the Payara Micro pass, beside Portcullis in the run's one WildFly
 * or Payara Server on the full-server passes (deployed by {@code AppServer}). It accepts a token for its audience
 * with its roles from {@code groups}, refuses one for another audience, a missing or forged one, and a user outside
 * the role; a JOSE library verifies the same token as a backend would.
 */
class BackendTokenValidationIT extends TokenEndpointTestBase {

    private static final String PASSWORD = "correct horse battery";
    private static final String SERVER = System.getProperty("portcullis.test.server", "payara-micro");

    /** The backend's own Payara Micro on the Payara Micro pass; null on WildFly, where it runs beside Portcullis. */
    private static PayaraProcess backendProcess;
    private static Http backend;
    private static Admin.TestClient groupsClient;

    @BeforeAll
    static void startTheBackend() throws IOException {
        switch (SERVER) {
            case "payara-micro" -> {
                Path dir = Files.createTempDirectory(Path.of("target"), "mp-backend");
                backendProcess = PayaraProcess.startWars(BackendWars.export(dir, BASE, true));
                backend = new Http(backendProcess.base());
            }
            case "wildfly", "payara-server" -> backend = new Http(BASE);
            default -> throw new IllegalStateException("unknown server " + SERVER);
        }
        groupsClient = null;
    }

    @AfterAll
    static void stopTheBackend() {
        if (backendProcess != null) {
            backendProcess.close();
        }
    }

    private Admin.TestUser userInGroups(String... groups) {
        String username = "backend" + Long.toHexString(System.nanoTime());
        String list = String.join(",", List.of(groups).stream().map(Http::q).toList());
        Http.Res r = admin.post("/admin/users", "{\"username\":" + Http.q(username) + ",\"password\":"
                + Http.q(PASSWORD) + ",\"groups\":[" + list + "]}");
        assertEquals(201, r.status(), r::toString);
        return new Admin.TestUser(username, PASSWORD, r.jsonString("user_id"));
    }

    /** An access token of {@code user} from a code exchange of a confidential client granted {@code scope}. */
    private String accessToken(Admin.TestUser user, String scope) {
        synchronized (BackendTokenValidationIT.class) {
            if (groupsClient == null) {
                groupsClient = admin.confidentialClient("openid groups", REDIRECT);
            }
        }
        String code = CodeFixture.issue(groupsClient.clientId(), user.userId(), REDIRECT, scope, null, null);
        Http.Res r = form(codeForm(groupsClient, code, REDIRECT));
        assertEquals(200, r.status(), r::toString);
        return r.jsonString("access_token");
    }

    private static Http.Res whoAmI(String war, String accessToken) {
        return accessToken == null ? backend.get("/" + war + "/whoami")
                : backend.get("/" + war + "/whoami", "Authorization", "Bearer " + accessToken);
    }

    @Test
    void theBackendAcceptsATokenForItsAudienceWithItsRolesFromGroups() {
        Admin.TestUser clerk = userInGroups("payroll", "staff");
        Http.Res r = whoAmI(BackendWars.FOR_PORTCULLIS_API, accessToken(clerk, "openid groups"));
        assertEquals(200, r.status(), () -> r + backendLog());
        assertEquals("principal=" + clerk.userId() + " payroll=true auditors=false", r.body().trim());
    }

    @Test
    void aBackendOfAnotherAudienceRefusesTheSameToken() {
        String token = accessToken(userInGroups("payroll"), "openid groups");
        assertEquals(401, whoAmI(BackendWars.FOR_ANOTHER_API, token).status(), this::backendLog);
        assertEquals(200, whoAmI(BackendWars.FOR_PORTCULLIS_API, token).status(), "the token itself is good");
    }

    @Test
    void aTokenForARegisteredApiIsAcceptedByThatApisBackendOnlyWithItsRoles() {
        // the other backend's audience registered as an API: a token asked for it with resource carries it as aud
        String scope = "another" + Long.toHexString(System.nanoTime()) + ".read";
        Http.Res api = admin.post("/admin/apis", "{\"identifier\":" + Http.q(BackendWars.ANOTHER_AUDIENCE)
                + ",\"name\":\"Another API\",\"scopes\":[" + Http.q(scope) + "]}");
        assertEquals(201, api.status(), api::toString);
        Admin.TestClient client = admin.confidentialClient("openid groups " + scope, REDIRECT);
        Admin.TestUser clerk = userInGroups("payroll");
        String code = CodeFixture.issue(client.clientId(), clerk.userId(), REDIRECT, "openid groups " + scope, null,
                null);
        Map<String, String> request = codeForm(client, code, REDIRECT);
        request.put("resource", BackendWars.ANOTHER_AUDIENCE);
        Http.Res r = form(request);
        assertEquals(200, r.status(), r::toString);
        assertEquals(scope, r.jsonString("scope"), "narrowed to the API's scope");
        String token = r.jsonString("access_token");

        Http.Res accepted = whoAmI(BackendWars.FOR_ANOTHER_API, token);
        assertEquals(200, accepted.status(), () -> accepted + backendLog());
        assertEquals("principal=" + clerk.userId() + " payroll=true auditors=false", accepted.body().trim(),
                "the groups survive the narrowing to the API");
        assertEquals(401, whoAmI(BackendWars.FOR_PORTCULLIS_API, token).status(),
                "the backend of Portcullis's own audience refuses a token for the API");
    }

    @Test
    void noTokenOrAForgedOneIsRefused() {
        // WildFly leaves a caller without a token anonymous, and RESTEasy's role check answers 403 (README)
        Http.Res none = whoAmI(BackendWars.FOR_PORTCULLIS_API, null);
        assertEquals(SERVER.equals("wildfly") ? 403 : 401, none.status(), none::toString);
        String[] parts = accessToken(userInGroups("payroll"), "openid groups").split("\\.");
        String forged = parts[2].substring(0, 10) + (parts[2].charAt(10) == 'A' ? 'B' : 'A') + parts[2].substring(11);
        Http.Res r = whoAmI(BackendWars.FOR_PORTCULLIS_API, parts[0] + "." + parts[1] + "." + forged);
        assertEquals(401, r.status(), r::toString);
        assertFalse(r.body().contains("principal="), r::toString);
    }

    @Test
    void aUserOutsideTheGroupOrATokenWithoutScopeGroupsIsForbidden() {
        assertEquals(403, whoAmI(BackendWars.FOR_PORTCULLIS_API, accessToken(userInGroups("staff"),
                "openid groups")).status(), "authenticated, not in role payroll");
        assertEquals(403, whoAmI(BackendWars.FOR_PORTCULLIS_API, accessToken(userInGroups("payroll"),
                "openid")).status(), "the groups are released under scope groups only");
    }

    @Test
    void withOnlyTheThreeStandardSettingsPayaraRefusesTheAtJwtTypeAndWildFlyAccepts() {
        String token = accessToken(userInGroups("payroll"), "openid groups");
        if (SERVER.startsWith("payara")) {
            assertEquals(401, whoAmI(BackendWars.WITHOUT_VENDOR_FILE, token).status(),
                    "Payara's MP-JWT wants typ JWT unless payara-mp-jwt.properties disables the check");
        } else {
            assertEquals(200, whoAmI(BackendWars.FOR_PORTCULLIS_API, token).status(),
                    "WildFly's SmallRye JWT does not check typ");
        }
    }

    @Test
    void aJoseLibraryVerifiesSignatureAudienceSubjectAndGroupsFromTheJwks() throws Exception {
        Admin.TestUser clerk = userInGroups("payroll", "staff");
        String token = accessToken(clerk, "openid groups");
        DefaultJWTProcessor<SecurityContext> verifier = new DefaultJWTProcessor<>();
        verifier.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        // RS256 only, as a backend with its library's default would
        verifier.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(jwks())));
        verifier.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(BASE + "/api",
                new JWTClaimsSet.Builder().issuer(BASE).subject(clerk.userId()).build(),
                Set.of("exp", "iat", "jti", "groups")));
        JWTClaimsSet claims = verifier.process(token, null);
        assertEquals(List.of("payroll", "staff"), claims.getStringListClaim("groups"));
        assertNull(claims(accessToken(clerk, "openid")).getClaim("groups"), "not without scope groups");
    }

    // ---- the libraries themselves, against the same tokens ----

    /** A registered API signing with {@code alg}; a token of {@code clerk} asked for it with {@code resource}. */
    private record ApiToken(String audience, String token, Admin.TestClient client) {
    }

    private ApiToken apiToken(Admin.TestUser clerk, String alg) {
        return apiToken(clerk, alg, "at+jwt");
    }

    /** The same for an API whose tokens are typed {@code typ}. */
    private ApiToken apiToken(Admin.TestUser clerk, String alg, String typ) {
        String audience = "https://api-" + Long.toHexString(System.nanoTime()) + ".example.com";
        String scope = "lib" + Long.toHexString(System.nanoTime()) + ".read";
        Http.Res api = admin.post("/admin/apis", "{\"identifier\":" + Http.q(audience) + ",\"name\":\"Library API\","
                + "\"scopes\":[" + Http.q(scope) + "],\"access_token_signing_alg\":" + Http.q(alg)
                + ",\"access_token_typ\":" + Http.q(typ) + "}");
        assertEquals(201, api.status(), api::toString);
        Admin.TestClient client = admin.confidentialClient("openid " + scope, REDIRECT);
        String code = CodeFixture.issue(client.clientId(), clerk.userId(), REDIRECT, "openid " + scope, null, null);
        Map<String, String> request = codeForm(client, code, REDIRECT);
        request.put("resource", audience);
        Http.Res r = form(request);
        assertEquals(200, r.status(), r::toString);
        return new ApiToken(audience, r.jsonString("access_token"), client);
    }

    /**
     * Spring Boot 3.5's own resource-server auto-configuration, as an application with these properties (and beans)
     * gets it; its {@code JwtDecoder}.
     */
    private static void withSpringBoot(List<String> properties, List<Class<?>> configurations,
                                       java.util.function.Consumer<JwtDecoder> use) {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OAuth2ResourceServerAutoConfiguration.class))
                .withUserConfiguration(configurations.toArray(Class<?>[]::new))
                .withPropertyValues(properties.toArray(String[]::new))
                .run(context -> use.accept(context.getBean(JwtDecoder.class)));
    }

    /** Spring's message for the token it refuses; empty when it accepts it. */
    private static String springRefusal(JwtDecoder decoder, String token) {
        try {
            decoder.decode(token);
            return "";
        } catch (JwtException e) {
            return e.getMessage();
        }
    }

    /** The web security filter chain of the application, so that Boot does not build its own (not under test). */
    @Configuration(proxyBeanMethods = false)
    static class AnyFilterChain {
        @Bean
        SecurityFilterChain filterChain() {
            return new DefaultSecurityFilterChain(request -> true);
        }
    }

    /** README's two beans for RFC 9068 access tokens: Nimbus' typ check off, Spring's {@code JwtTypeValidator} on. */
    @Configuration(proxyBeanMethods = false)
    static class ReadmeAtJwtBeans {
        @Bean
        JwkSetUriJwtDecoderBuilderCustomizer typeCheckedBySpring() {
            return builder -> builder.validateType(false);
        }

        @Bean
        OAuth2TokenValidator<Jwt> accessTokenType() {
            return new JwtTypeValidator("at+jwt");
        }
    }

    @Test
    void springBootWithTheIssuerUriAloneRefusesEveryPortcullisAccessTokenForItsTyp() {
        String token = accessToken(userInGroups("payroll"), "openid groups");
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE),
                List.of(AnyFilterChain.class), decoder -> assertEquals(
                        "An error occurred while attempting to decode the Jwt: JOSE header typ (type) at+jwt not "
                        + "allowed", springRefusal(decoder, token)));
    }

    @Test
    void springBootWithReadmesConfigurationAcceptsTheTokenForItsAudienceOnly() {
        Admin.TestUser clerk = userInGroups("payroll");
        String token = accessToken(clerk, "openid groups");
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.audiences=" + BASE + "/api"),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> {
                    Jwt jwt = decoder.decode(token);
                    assertEquals(clerk.userId(), jwt.getSubject());
                    assertEquals(List.of("payroll"), jwt.getClaimAsStringList("groups"));
                });
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.audiences=" + BackendWars.ANOTHER_AUDIENCE),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> assertTrue(
                        springRefusal(decoder, token).contains("The aud claim is not valid"),
                        () -> springRefusal(decoder, token)));
    }

    /**
     * With {@code issuer-uri}, Boot builds the decoder from the issuer's discovery and JWKS and never reads
     * {@code jws-algorithms}: every algorithm of the JWKS is accepted. With {@code jwk-set-uri} the setting holds
     * (default RS256 alone).
     */
    @Test
    void springBootIgnoresJwsAlgorithmsWithTheIssuerUriAndAppliesItWithTheJwkSetUri() {
        Admin.TestUser clerk = userInGroups("payroll");
        String rs256 = accessToken(clerk, "openid groups");
        String es256 = apiToken(clerk, "ES256").token();
        String ps256 = apiToken(clerk, "PS256").token();
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.jws-algorithms=PS256"),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> {
                    assertEquals("", springRefusal(decoder, rs256), "RS256 though only PS256 is named");
                    assertEquals("", springRefusal(decoder, es256), "ES256 though only PS256 is named");
                    assertEquals("", springRefusal(decoder, ps256));
                });
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.jwk-set-uri=" + BASE
                        + "/oauth/discovery/keys", "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> {
                    assertEquals("", springRefusal(decoder, rs256));
                    assertTrue(springRefusal(decoder, es256).contains("Another algorithm expected"),
                            () -> springRefusal(decoder, es256));
                    assertTrue(springRefusal(decoder, ps256).contains("Another algorithm expected"),
                            () -> springRefusal(decoder, ps256));
                });
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.jwk-set-uri=" + BASE
                        + "/oauth/discovery/keys", "spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.jws-algorithms=ES256"),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> {
                    assertEquals("", springRefusal(decoder, es256));
                    assertTrue(springRefusal(decoder, rs256).contains("Another algorithm expected"),
                            () -> springRefusal(decoder, rs256));
                });
    }

    /** Nimbus' {@code DefaultJWTProcessor} as it comes: {@code typ} must be {@code JWT} or absent. */
    @Test
    void nimbusDefaultProcessorRefusesTheAtJwtTypUntilToldToExpectIt() throws Exception {
        String token = accessToken(userInGroups("payroll"), "openid groups");
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256,
                new ImmutableJWKSet<>(jwks())));
        BadJOSEException refused = assertThrows(BadJOSEException.class, () -> processor.process(token, null));
        assertEquals("JOSE header typ (type) at+jwt not allowed", refused.getMessage());
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        assertEquals(BASE, processor.process(token, null).getIssuer());
    }

    /**
     * SmallRye JWT (WildFly's and Quarkus' MicroProfile JWT) given the JWKS URL and issuer only: it reads no
     * {@code typ} and accepts RS256; PS256 and ES256 need {@code mp.jwt.verify.publickey.algorithm}; and it checks no
     * {@code aud} unless {@code mp.jwt.verify.audiences} names one.
     */
    @Test
    void smallRyeJwtWithTheJwksUrlAndIssuerAcceptsRs256AndChecksNoAudience() throws Exception {
        Admin.TestUser clerk = userInGroups("payroll");
        String token = accessToken(clerk, "openid groups");
        JWTAuthContextInfo plain = new JWTAuthContextInfo(BASE + "/oauth/discovery/keys", BASE);
        JsonWebToken jwt = new DefaultJWTParser(plain).parse(token);
        assertEquals(clerk.userId(), jwt.getSubject());
        assertEquals(Set.of("payroll"), jwt.getGroups());

        ApiToken other = apiToken(clerk, "RS256");
        assertEquals(Set.of(other.audience()), new DefaultJWTParser(plain).parse(other.token()).getAudience(),
                "a token for another API passes when no audience is set");
        JWTAuthContextInfo withAudience = new JWTAuthContextInfo(plain);
        withAudience.setExpectedAudience(Set.of(BASE + "/api"));
        assertThrows(ParseException.class, () -> new DefaultJWTParser(withAudience).parse(other.token()));

        for (String alg : List.of("PS256", "ES256")) {
            String signed = apiToken(clerk, alg).token();
            assertThrows(ParseException.class, () -> new DefaultJWTParser(plain).parse(signed), alg);
            JWTAuthContextInfo named = new JWTAuthContextInfo(plain);
            named.setSignatureAlgorithm(Set.of(SignatureAlgorithm.fromAlgorithm(alg)));
            assertEquals(clerk.userId(), new DefaultJWTParser(named).parse(signed).getSubject(), alg);
        }
    }

    // ---- an API's choice of typ ----

    /**
     * {@code access_token_typ} through the admin API: {@code at+jwt} unless {@code JWT} is chosen, exactly one of the
     * two (by class: another case, another type, empty, not a string), never removed, audited; the tokens carry it.
     */
    @Test
    void anApiChoosesTheTypOfItsTokensThroughTheAdminApi() throws Exception {
        String tag = "typ" + Long.toHexString(System.nanoTime());
        Http.Res created = admin.post("/admin/apis", "{\"identifier\":\"https://" + tag + ".example.com\",\"name\":"
                + "\"Typ API\",\"scopes\":[\"" + tag + ".read\"]}");
        assertEquals(201, created.status(), created::toString);
        assertEquals("at+jwt", created.jsonString("access_token_typ"), "the default");
        String id = created.jsonString("id");
        for (String bad : List.of("\"jwt\"", "\"AT+JWT\"", "\"at+JWT \"", "\"application/at+jwt\"", "\"JWS\"",
                "\"\"", "1", "null")) {
            Http.Res r = admin.patch("/admin/apis/" + id, "{\"access_token_typ\":" + bad + "}");
            assertEquals(400, r.status(), () -> bad + " → " + r);
            assertEquals("invalid_request", r.jsonString("error"), r::toString);
            assertTrue(r.jsonString("error_description").startsWith("access_token_typ"), r::toString);
        }
        assertEquals("at+jwt", admin.get("/admin/apis/" + id).jsonString("access_token_typ"), "unchanged");
        Http.Res patched = admin.patch("/admin/apis/" + id, "{\"access_token_typ\":\"JWT\"}");
        assertEquals(200, patched.status(), patched::toString);
        assertEquals("JWT", patched.jsonString("access_token_typ"));
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'API_UPDATED' AND detail LIKE ?",
                "https://" + tag + ".example.com: access_token_typ%"));

        Admin.TestUser clerk = userInGroups("payroll");
        ApiToken plain = apiToken(clerk, "RS256", "JWT");
        assertEquals(JOSEObjectType.JWT, SignedJWT.parse(plain.token()).getHeader().getType());
        assertEquals(1, Db.count("SELECT COUNT(*) FROM audit_events WHERE event_type = 'API_CREATED' AND detail LIKE ?",
                plain.audience() + ", scopes %, access_token_typ JWT%"));
        assertEquals(new JOSEObjectType("at+jwt"), SignedJWT.parse(apiToken(clerk, "RS256").token()).getHeader()
                .getType());
        Http.Res registered = admin.post("/admin/apis", "{\"identifier\":\"https://" + tag + "2.example.com\","
                + "\"name\":\"Typ API\",\"scopes\":[\"" + tag + "2.read\"],\"access_token_typ\":\"jwt\"}");
        assertEquals(400, registered.status(), registered::toString);
    }

    /**
     * A token typed {@code JWT} passes the libraries' defaults — and so would any JWT of the issuer for any API: Boot
     * with {@code issuer-uri} alone accepts a token for another API, so the backend must check {@code aud}. README's
     * at+jwt configuration refuses it; Portcullis's own introspection knows it.
     */
    @Test
    void aPlainJwtTokenPassesTheLibrariesDefaultsSoTheAudienceMustBeChecked() throws Exception {
        Admin.TestUser clerk = userInGroups("payroll");
        ApiToken plain = apiToken(clerk, "RS256", "JWT");
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE),
                List.of(AnyFilterChain.class), decoder -> assertEquals(plain.audience(),
                        decoder.decode(plain.token()).getAudience().get(0), "accepted, whatever API it is for"));
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.audiences=" + BASE + "/api"),
                List.of(AnyFilterChain.class), decoder -> assertTrue(springRefusal(decoder, plain.token())
                        .contains("The aud claim is not valid"), () -> springRefusal(decoder, plain.token())));
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.audiences=" + plain.audience()),
                List.of(AnyFilterChain.class), decoder -> assertEquals("", springRefusal(decoder, plain.token())));
        withSpringBoot(List.of("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + BASE,
                        "spring.security.oauth2.resourceserver.jwt.audiences=" + plain.audience()),
                List.of(AnyFilterChain.class, ReadmeAtJwtBeans.class), decoder -> assertTrue(
                        springRefusal(decoder, plain.token()).contains("the given typ value needs to be one of "
                                + "[at+jwt]"), () -> springRefusal(decoder, plain.token())));

        DefaultJWTProcessor<SecurityContext> nimbus = new DefaultJWTProcessor<>();
        nimbus.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(jwks())));
        assertEquals(clerk.userId(), nimbus.process(plain.token(), null).getSubject());

        Http.Res introspected = http.postForm("/oauth/introspect", Map.of("token", plain.token(), "client_id",
                plain.client().clientId(), "client_secret", plain.client().secret()));
        assertEquals(200, introspected.status(), introspected::toString);
        assertEquals(Boolean.TRUE, introspected.json().get("active"), introspected::toString);
    }

    private String backendLog() {
        return backendProcess == null ? "" : "\n" + backendProcess.output();
    }
}
