package dev.portcullis.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseKindTest {

    @ParameterizedTest
    @ValueSource(strings = {"/oauth/authorize", "/oauth/logout", "/login.xhtml", "/consent.xhtml", "/", "/demo/",
        "/demo/callback", "/css/portcullis.css", "/nowhere", "/oauth", "/admin", "/api", "/.well-known",
        "/oauthx/token", "/admin/console", "/admin/console/", "/admin/console/users.xhtml", "/account/"})
    void browserPathsGetAPage(String path) {
        assertEquals(ResponseKind.PAGE, ResponseKind.of(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/oauth/token", "/oauth/userinfo", "/oauth/introspect", "/oauth/revoke",
        "/oauth/discovery/keys", "/oauth/authorize/", "/oauth/logout/", "/admin/clients", "/admin/",
        "/api/v1/me", "/.well-known/openid-configuration", "/admin/consoles"})
    void apiPathsGetJson(String path) {
        assertEquals(ResponseKind.JSON, ResponseKind.of(path));
    }

    @ParameterizedTest
    @NullSource
    void noKnownPathIsAnApiCaller(String path) {
        assertEquals(ResponseKind.JSON, ResponseKind.of(path));
    }
}
