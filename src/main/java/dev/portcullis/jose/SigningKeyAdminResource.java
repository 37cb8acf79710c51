package dev.portcullis.jose;

import com.nimbusds.jose.JWSAlgorithm;
import dev.portcullis.audit.Actor;
import dev.portcullis.config.KeySettings;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonObjects;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.NoStoreJson;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code /admin/keys}: list the signing keys (never their private parts) and rotate them. A rotated-in key is
 * published in the JWKS at once and signs only after the activation delay (default
 * {@code portcullis.keys.activation-delay}), so relying parties and the other instances learn it first; the old key
 * signs until then and stays published until its last token has expired.
 */
@Path("keys")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class SigningKeyAdminResource {

    private static final Set<String> FIELDS = Set.of("alg", "activation_delay_seconds");

    @Inject
    SigningKeyService keys;

    @Inject
    ClientAddress clientAddress;

    @Inject
    KeySettings keySettings;

    @Context
    HttpServletRequest request;

    @GET
    @Operation(summary = "List signing keys: kid, alg, created_at, active_from, retired_at (no key material)")
    public String list() {
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        keys.rows().forEach(k -> a.add(describe(k)));
        return JsonSupport.JSON.createObjectBuilder().add("keys", a).build().toString();
    }

    @POST
    @Path("rotate")
    @Operation(summary = "Rotate signing keys",
            description = "Optional JSON body: {\"alg\":\"RS256\"|\"PS256\"|\"ES256\", \"activation_delay_seconds\": n}. Without "
                    + "alg every algorithm rotates; without a delay portcullis.keys.activation-delay applies. A delay "
                    + "of 0 switches at once (emergency: relying parties refetch the JWKS on the unknown kid).")
    public Response rotate(String body) {
        Optional<JWSAlgorithm> alg = Optional.empty();
        Duration delay = keySettings.activationDelay();
        if (body != null && !body.isBlank()) {
            JsonObjects json = JsonObjects.parse(body, FIELDS);
            alg = json.string("alg", 16).map(JWSAlgorithm::parse);
            delay = delaySeconds(body).orElse(delay);
        }
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        for (SigningKey k : keys.rotate(alg, delay, Actor.adminToken(clientAddress.of(request)))) {
            a.add(describe(k));
        }
        return NoStoreJson.of(200, JsonSupport.JSON.createObjectBuilder().add("keys", a).build().toString()).build();
    }

    /** Read after {@link JsonObjects#parse} has accepted the body as one object; {@code rotate} checks the range. */
    private static Optional<Duration> delaySeconds(String body) {
        jakarta.json.JsonValue v = JsonSupport.JSON.createReader(new java.io.StringReader(body)).readObject()
                .get("activation_delay_seconds");
        if (v == null || v == jakarta.json.JsonValue.NULL) {
            return Optional.empty();
        }
        if (!(v instanceof jakarta.json.JsonNumber n) || !n.isIntegral()
                || n.bigIntegerValue().bitLength() >= Long.SIZE) {
            throw SigningKeyService.invalidActivationDelay(); // the range is SigningKeyService.rotate's
        }
        return Optional.of(Duration.ofSeconds(n.longValue()));
    }

    private static JsonObjectBuilder describe(SigningKey k) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("kid", k.kid())
                .add("alg", k.alg())
                .add("created_at", k.createdAt().getEpochSecond())
                .add("active_from", k.activeFrom().getEpochSecond());
        if (k.retiredAt() != null) {
            b.add("retired_at", k.retiredAt().getEpochSecond());
        }
        return b;
    }
}
