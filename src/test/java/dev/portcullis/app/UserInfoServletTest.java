package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Userinfo's reading of a request: which query strings present an access token (refused: RFC 6750 2.3 is not
 * supported), which Accept headers admit its JSON answer.
 */
class UserInfoServletTest {

    @Test
    void aQueryParameterNamedAccessTokenIsFoundHoweverItIsWritten() {
        for (String query : new String[] {"access_token=x", "access_token", "access_token=", "a=b&access_token=x",
            "access%5Ftoken=x", "access%5ftoken=x", "%zz&access_token=x", "&&access_token=x&", "a=access_token&access_token"}) {
            assertTrue(UserInfoServlet.namesAccessToken(query), query);
        }
    }

    @Test
    void otherQueriesAreNotAToken() {
        for (String query : new String[] {null, "", "a=access_token", "access_tokens=x", "ACCESS_TOKEN=x",
            "access_token%3D=x", "x_access_token=1", "access%zztoken=1", "&"}) {
            assertFalse(UserInfoServlet.namesAccessToken(query), query);
        }
    }

    @Test
    void acceptHeadersThatAdmitJson() {
        for (String accept : new String[] {null, "", " ", "application/json", "APPLICATION/JSON", "*/*",
            "application/*", "text/html, application/json;q=0.1", "application/json; charset=utf-8",
            "text/html;q=0.9, */*;q=0.8", "application/json;q=1", "application/json;q=1.000", "application/json;q=0.001"}) {
            assertTrue(UserInfoServlet.acceptsJson(accept), String.valueOf(accept));
        }
    }

    @Test
    void acceptHeadersThatDoNotAdmitJson() {
        for (String accept : new String[] {"text/html", "application/xml", "application/json;q=0", "*/*;q=0.0",
            "application/json;q=0.000, text/plain", "application/json;q=2", "application/json;q=abc",
            "application/json;q=-1", "application/jsonx", "json", ",", "application/json+x;q=1"}) {
            assertFalse(UserInfoServlet.acceptsJson(accept), accept);
        }
    }
}
