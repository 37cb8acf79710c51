package dev.portcullis.api;

import java.util.List;

/**
 * What an access token is issued for: its {@code aud} (one or more API identifiers), its scope (narrowed to those
 * APIs' scopes when resources were requested) and the algorithm it is signed with (null: the global default).
 */
public record AccessTokenAudience(List<String> audience, String scope, String signingAlg) {

    public AccessTokenAudience {
        audience = List.copyOf(audience);
    }
}
