package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The claims parameter (OIDC Core 5.5) by class of input: its shapes, its refusals, its stored form. */
class ClaimsRequestTest {

    @Test
    void parseWhenAbsentOrEmptyThenNone() {
        assertSame(ClaimsRequest.NONE, ClaimsRequest.parse(Optional.empty()));
        assertSame(ClaimsRequest.NONE, ClaimsRequest.parse(Optional.of("")));
        assertSame(ClaimsRequest.NONE, ClaimsRequest.stored(null));
        assertEquals(null, ClaimsRequest.NONE.toJson());
    }

    @Test
    void parseWhenWellFormedThenReadsEachMemberAndIgnoresOthers() {
        ClaimsRequest r = ClaimsRequest.parse(Optional.of("{\"userinfo\":{\"name\":{\"essential\":true},"
                + "\"nickname\":null},\"id_token\":{\"locale\":{\"value\":\"en-GB\"},\"gender\":{\"values\":"
                + "[\"female\",\"male\"]},\"auth_time\":{\"essential\":true}},\"other\":{\"x\":1}}"));
        assertTrue(r.userinfo().get("name").essential());
        assertFalse(r.userinfo().get("nickname").essential());
        assertTrue(r.userinfo().get("nickname").allows("anything"), "no value: any value");
        assertTrue(r.idToken().get("locale").allows("en-GB"));
        assertFalse(r.idToken().get("locale").allows("de-DE"));
        assertTrue(r.idToken().get("gender").allows("male"));
        assertFalse(r.idToken().get("gender").allows(Boolean.TRUE));
        assertEquals(Set.of("name", "nickname", "locale", "gender", "auth_time"), r.names());
        assertEquals(Set.of(), r.subjects());
    }

    @Test
    void storedFormReadsBackTheSameRequest() {
        ClaimsRequest r = ClaimsRequest.parse(Optional.of("{\"id_token\":{\"sub\":{\"value\":\"u1\"},"
                + "\"phone_number_verified\":{\"value\":true},\"updated_at\":{\"values\":[1,2]}}}"));
        ClaimsRequest back = ClaimsRequest.stored(r.toJson());
        assertEquals(r.names(), back.names());
        assertEquals(Set.of("u1"), back.subjects());
        assertTrue(back.idToken().get("phone_number_verified").allows(Boolean.TRUE));
        assertFalse(back.idToken().get("phone_number_verified").allows(Boolean.FALSE));
        assertTrue(back.idToken().get("updated_at").allows(2L));
        assertFalse(back.idToken().get("updated_at").allows(3L));
        assertEquals(r.toJson(), back.toJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "not json", "[]", "\"text\"", "null", "{\"userinfo\":[]}",
        "{\"id_token\":\"name\"}", "{\"userinfo\":{\"name\":true}}", "{\"userinfo\":{\"name\":\"x\"}}",
        "{\"userinfo\":{\"name\":{\"essential\":\"yes\"}}}", "{\"id_token\":{\"name\":{\"values\":\"a\"}}}",
        "LONG", "MANY"})
    void parseWhenMalformedThenInvalidRequest(String template) {
        StringBuilder many = new StringBuilder("{\"userinfo\":{");
        for (int i = 0; i <= ClaimsRequest.MAX_CLAIMS; i++) {
            many.append(i == 0 ? "" : ",").append("\"c").append(i).append("\":null");
        }
        String text = template.equals("LONG") ? "{\"userinfo\":{\"name\":{\"value\":\""
                + "x".repeat(ClaimsRequest.MAX_LENGTH) + "\"}}}" : template.equals("MANY") ? many + "}}" : template;
        OAuthException e = assertThrows(OAuthException.class, () -> ClaimsRequest.parse(Optional.of(text)));
        assertEquals(OAuthError.INVALID_REQUEST, e.error());
    }

    @Test
    void subjectsCollectsEveryValueOfSub() {
        ClaimsRequest r = ClaimsRequest.parse(Optional.of("{\"userinfo\":{\"sub\":{\"value\":\"a\"}},"
                + "\"id_token\":{\"sub\":{\"values\":[\"b\"]}}}"));
        assertEquals(Set.of("a", "b"), r.subjects());
        assertEquals(List.of(), ClaimsRequest.parse(Optional.of("{\"id_token\":{\"sub\":null}}")).subjects()
                .stream().toList());
    }
}
