package dev.portcullis.tokenuse;

import com.nimbusds.jwt.SignedJWT;
import dev.portcullis.account.User;
import dev.portcullis.account.UserRepository;
import dev.portcullis.client.Client;
import dev.portcullis.client.Scopes;
import dev.portcullis.config.IssuerSettings;
import dev.portcullis.config.TokenSettings;
import dev.portcullis.dpop.DpopProofVerifier;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.protocol.ProtocolParameters;
import dev.portcullis.token.AccessTokenVerifier.VerifiedAccessToken;
import dev.portcullis.token.ClientAuthenticator;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;

/**
 * {@code POST /oauth/introspect} (RFC 7662), for authenticated confidential clients only (a public client cannot
 * prove who asks: 401 invalid_client). Parameters {@code token} and optional {@code token_type_hint}, as a form or
 * flat JSON. The answer is {@code {"active":false}} — and nothing else — for unknown, expired, revoked, rotated or
 * foreign tokens (a token issued to another client is not the caller's business); otherwise {@code active:true}
 * with {@code scope, client_id, username, sub, exp, iat, iss} and, for access tokens, {@code token_type: Bearer},
 * {@code aud}, {@code jti} ({@code token_type: DPoP} and {@code cnf.jkt} for a DPoP-bound one, RFC 9449 6.2). A
 * client-credentials token has no user: its {@code sub} is the client id, and it has no {@code username}. A
 * DPoP-bound token of the caller is answered only with a DPoP proof by its key
 * ({@link PresentedToken#proofFitsBinding}).
 */
@Path("introspect")
@RequestScoped
public class IntrospectionEndpoint {

    @Inject
    ClientAuthenticator authenticator;

    @Inject
    ClientAddress clientAddress;

    @Inject
    PresentedToken tokens;

    @Inject
    UserRepository users;

    @Inject
    IssuerSettings issuer;

    @Inject
    TokenSettings tokenSettings;

    @Inject
    Clock clock;

    @Context
    HttpHeaders headers;

    @Context
    HttpServletRequest request;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response introspect(String body) {
        ProtocolParameters p = ProtocolParameters.fromBody(headers, body);
        Client client = authenticator.authenticate(p, headers.getHeaderString(HttpHeaders.AUTHORIZATION),
                clientAddress.of(request), "/oauth/introspect");
        if (!client.confidential()) {
            throw OAuthException.invalidClient("Introspection is for confidential clients: authenticate with the "
                    + "client secret");
        }
        String token = p.require("token");
        Optional<PresentedToken.Found> found = tokens.find(token, p.get("token_type_hint"))
                .filter(f -> f.clientId().equals(client.clientId()));
        found.ifPresent(f -> tokens.proofFitsBinding(f, token, headers.getRequestHeader(DpopProofVerifier.HEADER),
                issuer.endpoint("/oauth/introspect")));
        Optional<JsonObjectBuilder> active = found.flatMap(f -> describe(f, token));
        String json = active.map(b -> b.build().toString())
                .orElse(JsonSupport.JSON.createObjectBuilder().add("active", false).build().toString());
        return NoStoreJson.of(200, json).build();
    }

    private Optional<JsonObjectBuilder> describe(PresentedToken.Found found, String value) {
        if (found instanceof PresentedToken.Access a) {
            VerifiedAccessToken t = a.token();
            Optional<JsonObjectBuilder> described = t.hasUser()
                    ? users.findCached(t.userId()).filter(User::enabled).map(user -> common(user, t.clientId(),
                            Scopes.format(t.scopes()), t.expiresAt(), issuedAt(value)))
                    : Optional.of(common(null, t.clientId(), Scopes.format(t.scopes()), t.expiresAt(),
                            issuedAt(value)));
            described.ifPresent(b -> {
                b.add("token_type", t.isDpopBound() ? "DPoP" : "Bearer").add("aud", audience(t)).add("jti", t.jti());
                if (t.isDpopBound()) {
                    b.add("cnf", JsonSupport.JSON.createObjectBuilder().add("jkt", t.dpopJkt()));
                }
            });
            return described;
        }
        PresentedToken.Refresh r = (PresentedToken.Refresh) found;
        if (!r.isActive(clock.instant(), tokenSettings.refreshTokenMaxLifetime())) {
            return Optional.empty();
        }
        // tokens issued before the family lifetime existed may expire after the family ends: report the earlier
        Instant familyEnd = r.grant().endsAt(tokenSettings.refreshTokenMaxLifetime());
        Instant exp = r.token().expiresAt().isAfter(familyEnd) ? familyEnd : r.token().expiresAt();
        return users.findCached(r.grant().userId()).filter(User::enabled).map(user -> common(user, r.clientId(), r.token().scope(), exp,
                r.token().createdAt()));
    }

    /** RFC 7662 2.2: a single audience as a string, several as an array, as the token's {@code aud} says. */
    private static jakarta.json.JsonValue audience(VerifiedAccessToken t) {
        if (t.audience().size() == 1) {
            return JsonSupport.JSON.createValue(t.audience().get(0));
        }
        jakarta.json.JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        t.audience().forEach(a::add);
        return a.build();
    }

    /** The fields of every active token; a token without a user ({@code user} null) has its client as sub. */
    private JsonObjectBuilder common(User user, String clientId, String scope, Instant exp, Instant iat) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("active", true)
                .add("scope", scope)
                .add("client_id", clientId);
        if (user != null) {
            b.add("username", user.username());
        }
        return b.add("sub", user == null ? clientId : user.userId())
                .add("exp", exp.getEpochSecond())
                .add("iat", iat.getEpochSecond())
                .add("iss", issuer.issuerString());
    }

    /** The access token's iat (its signature has already been verified). */
    private static Instant issuedAt(String jwt) {
        try {
            Date iat = SignedJWT.parse(jwt).getJWTClaimsSet().getIssueTime();
            return iat == null ? Instant.EPOCH : iat.toInstant();
        } catch (ParseException e) {
            return Instant.EPOCH;
        }
    }
}
