package dev.portcullis.discovery;

import com.nimbusds.jose.JWSAlgorithm;
import dev.portcullis.api.ResourceIndicatorService;
import dev.portcullis.authorize.RequestObjectVerifier;
import dev.portcullis.authorize.ResponseMode;
import dev.portcullis.client.ClientAuthMethods;
import dev.portcullis.client.GrantTypes;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.config.HttpSettings;
import dev.portcullis.config.PushedAuthorizationSettings;
import dev.portcullis.config.RequestObjectSettings;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.protocol.CrossOrigin;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.session.AuthMethods;
import dev.portcullis.token.ClientAssertionVerifier;
import dev.portcullis.token.UserClaims;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /.well-known/openid-configuration} (OpenID Connect Discovery 1.0, RFC 8414). Built once: everything in
 * it follows from the configuration. Cacheable for {@code portcullis.discovery.max-age}.
 */
@Path("openid-configuration")
@ApplicationScoped
@CrossOrigin
public class DiscoveryResource {

    /** The protocol claims of the ID token, then the user claims the scopes release ({@link UserClaims#ALL}). */
    public static final List<String> CLAIMS = claims();

    private static List<String> claims() {
        List<String> names = new ArrayList<>(List.of("iss", "sub", "aud", "exp", "iat", "auth_time", "nonce",
                "at_hash", "azp", "amr", "acr", "sid"));
        names.addAll(UserClaims.ALL);
        return List.copyOf(names);
    }

    @Inject
    IssuerSettings issuer;

    @Inject
    HttpSettings httpSettings;

    @Inject
    PushedAuthorizationSettings pushSettings;

    @Inject
    RequestObjectSettings objectSettings;

    @Inject
    ResourceIndicatorService resourceIndicators;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response configuration() {
        CacheControl cc = new CacheControl();
        cc.setMaxAge((int) httpSettings.metadataMaxAge().toSeconds());
        return Response.ok(document()).cacheControl(cc).build();
    }

    /** Built per request: {@code scopes_supported} lists the registered APIs' scopes as they are now. */
    String document() {
        List<String> authMethods = ClientAuthMethods.ALL;
        List<String> algs = ClientAssertionVerifier.ALGORITHMS.stream().map(JWSAlgorithm::getName).toList();
        return JsonSupport.JSON.createObjectBuilder()
                .add("issuer", issuer.issuerString())
                .add("authorization_endpoint", issuer.endpoint("/oauth/authorize"))
                .add("token_endpoint", issuer.endpoint("/oauth/token"))
                .add("jwks_uri", issuer.endpoint("/oauth/discovery/keys"))
                .add("userinfo_endpoint", issuer.endpoint("/oauth/userinfo"))
                .add("revocation_endpoint", issuer.endpoint("/oauth/revoke"))
                .add("introspection_endpoint", issuer.endpoint("/oauth/introspect"))
                .add("end_session_endpoint", issuer.endpoint("/oauth/logout"))
                .add("pushed_authorization_request_endpoint", issuer.endpoint("/oauth/par"))
                .add("require_pushed_authorization_requests", pushSettings.required())
                .add("request_object_signing_alg_values_supported", array(RequestObjectVerifier.ALGORITHMS.stream()
                        .map(JWSAlgorithm::getName).toList()))
                .add("require_signed_request_object", objectSettings.required())
                .add("response_types_supported", array(List.of("code")))
                .add("response_modes_supported", array(ResponseMode.SUPPORTED))
                .add("grant_types_supported",
                        array(GrantTypes.ALL))
                .add("subject_types_supported", array(List.of("public")))
                .add("id_token_signing_alg_values_supported", array(List.of("RS256")))
                .add("dpop_signing_alg_values_supported", array(DpopProofVerifier.ALGS))
                .add("token_endpoint_auth_methods_supported", array(authMethods))
                .add("token_endpoint_auth_signing_alg_values_supported", array(algs))
                .add("revocation_endpoint_auth_methods_supported", array(authMethods))
                .add("revocation_endpoint_auth_signing_alg_values_supported", array(algs))
                // introspection is for confidential clients only (a public client cannot prove who asks)
                .add("introspection_endpoint_auth_methods_supported", array(authMethods.stream()
                        .filter(m -> !ClientAuthMethods.NONE.equals(m)).toList()))
                .add("introspection_endpoint_auth_signing_alg_values_supported", array(algs))
                .add("code_challenge_methods_supported", array(List.of("S256")))
                .add("scopes_supported", array(List.copyOf(resourceIndicators.directory().allScopes())))
                .add("claims_supported", array(CLAIMS))
                .add("claims_parameter_supported", true)
                .add("acr_values_supported", array(AuthMethods.ACR_VALUES))
                .add("authorization_response_iss_parameter_supported", true)
                // request_uri_parameter_supported defaults to true (OIDC Discovery 3): say that it is not (a pushed
                // request's request_uri is RFC 9126's, announced by pushed_authorization_request_endpoint)
                .add("request_parameter_supported", true)
                .add("request_uri_parameter_supported", false)
                // logout tokens carry sid, and the signed-out page loads front-channel logout URIs with iss and sid
                .add("backchannel_logout_supported", true)
                .add("backchannel_logout_session_supported", true)
                .add("frontchannel_logout_supported", true)
                .add("frontchannel_logout_session_supported", true)
                .build().toString();
    }

    private static JsonArrayBuilder array(List<String> values) {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        values.forEach(a::add);
        return a;
    }
}
