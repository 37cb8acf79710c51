package dev.portcullis.api;

import java.util.List;

/**
 * What an access token is issued for: its {@code aud} (one or more API identifiers), its scope (narrowed to those
 * APIs' scopes when resources were requested), the algorithm it is signed with (null: the global default) and its
 * header typ ({@code at+jwt}, or {@code JWT} when its APIs chose it).
 */
public record AccessTokenAudience(List<String> audience, String scope, String signingAlg, String typ) {

    public AccessTokenAudience {
        audience = List.copyOf(audience);
        typ = typ == null ? ApiRules.AT_JWT : typ;
    }

    /** A token typed {@code at+jwt}. */
    public AccessTokenAudience(List<String> audience, String scope, String signingAlg) {
        this(audience, scope, signingAlg, null);
    }
}
