package dev.portcullis.discovery;

import dev.portcullis.config.HttpSettings;
import dev.portcullis.jose.SigningKeyService;
import dev.portcullis.protocol.CrossOrigin;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /oauth/discovery/keys}: the JWKS (public parts only) of every key that is published now — upcoming,
 * active, and retired keys whose tokens may still be in use. Served from the in-memory key cache, no database read.
 */
@Path("discovery/keys")
@ApplicationScoped
@CrossOrigin
public class JwksResource {

    @Inject
    SigningKeyService keys;

    @Inject
    HttpSettings httpSettings;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response keys() {
        CacheControl cc = new CacheControl();
        cc.setMaxAge((int) httpSettings.metadataMaxAge().toSeconds());
        // JWKSet.toString() serializes public keys only (private parameters are dropped)
        return Response.ok(keys.publicJwks().toString(true)).cacheControl(cc)
                .build();
    }
}
