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
}
