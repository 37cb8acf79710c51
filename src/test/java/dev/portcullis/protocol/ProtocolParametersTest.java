package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.core.MultivaluedHashMap;
import org.junit.jupiter.api.Test;

class ProtocolParametersTest {

    @Test
    void noFormAtAllIsNoParameters() {
        // JAX-RS hands a POST without body and Content-Type to a form method as null
        assertTrue(ProtocolParameters.of(null).asMap().isEmpty());
    }

    @Test
    void aParameterGivenTwiceIsInvalidRequest() {
        MultivaluedHashMap<String, String> form = new MultivaluedHashMap<>();
        form.add("state", "a");
        form.add("state", "b");
        OAuthException e = assertThrows(OAuthException.class, () -> ProtocolParameters.of(form));
        assertEquals(OAuthError.INVALID_REQUEST, e.error());
    }

    @Test
    void resourceMayBeRepeatedInEveryForm() {
        MultivaluedHashMap<String, String> query = new MultivaluedHashMap<>();
        query.add("resource", "https://a.example");
        query.add("resource", "https://b.example");
        query.add("scope", "openid");
        ProtocolParameters p = ProtocolParameters.of(query);
        assertEquals(java.util.List.of("https://a.example", "https://b.example"), p.all("resource"));
        assertTrue(p.get("resource").isEmpty(), "not a single-valued parameter");
        assertEquals(java.util.Map.of("scope", "openid"), p.asMap());

        assertEquals(java.util.List.of("https://a.example", "https://b.example"), ProtocolParameters.fromForm(
                "resource=https%3A%2F%2Fa.example&grant_type=x&resource=https%3A%2F%2Fb.example&resource=")
                .all("resource"), "an empty value is absent");
        assertEquals(java.util.List.of(), ProtocolParameters.fromForm("grant_type=x").all("resource"));
    }

    @Test
    void aRepeatedResourceObeysTheRulesOfEveryValue() {
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> ProtocolParameters.fromForm("resource=a%0Ab")).error());
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> ProtocolParameters.fromForm("resource=https%3A%2F%2Fa.example&resource=" + "x".repeat(5000)))
                .error());
        String many = "resource=https%3A%2F%2Fa.example&".repeat(ProtocolParameters.MAX_REPEATS + 1);
        assertEquals(OAuthError.INVALID_REQUEST, assertThrows(OAuthException.class,
                () -> ProtocolParameters.fromForm(many)).error());
    }
}
