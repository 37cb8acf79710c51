package dev.portcullis.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestShapeFilterTest {

    @ParameterizedTest
    @ValueSource(strings = {"application/x-www-form-urlencoded", "application/json",
        "application/json; charset=utf-8", "application/x-www-form-urlencoded;charset=UTF-8", "application/json; charset=\"UTF-8\"", "text/plain",
        "application/x-www-form-urlencoded; charset=ISO-8859-1", "application/json;", "Application/JSON; Charset=UTF-16"})
    void readableContentTypesPass(String type) {
        assertTrue(RequestShapeFilter.contentTypeProblem(List.of(type)).isEmpty(), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/x-www-form-urlencoded; charset=utf-7", "application/json; charset=x-nonsense",
        "application/json; charset=\"utf-7\"", "application/json; charset=*", "application/json; charset=\"\"",
        "application/json; charset=utf-8; charset=utf-7", "multipart/form-data", "multipart/form-data; boundary=x",
        "MULTIPART/mixed; boundary=y"})
    void unknownCharsetsAndMultipartAre415(String type) {
        assertEquals(415, RequestShapeFilter.contentTypeProblem(List.of(type)).orElseThrow().status(), type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ";", "/", "text", "application/", "/json", "application json", "multipart/",
        "application/json; charset", "application/json; =x", "application/json; charset=", "application/json; a=\"b",
        "application/json; charset=utf-8\"", "application/json, text/plain", "appli<cation>/json"})
    void malformedContentTypesAre400(String type) {
        assertEquals(400, RequestShapeFilter.contentTypeProblem(List.of(type)).orElseThrow().status(), type);
    }

    @org.junit.jupiter.api.Test
    void twoContentTypesAre400AndNoneIsFine() {
        assertEquals(400, RequestShapeFilter.contentTypeProblem(List.of("application/json", "application/json"))
                .orElseThrow().status());
        assertTrue(RequestShapeFilter.contentTypeProblem(List.of()).isEmpty());
    }
}
