package dev.portcullis.app;

import java.util.ArrayList;
import java.util.List;

/**
 * Malformed and hostile values for the input sweep: injection strings, control characters, broken encodings,
 * over-long values, path traversal, header injection. Each is sent as a parameter value, a JSON string, a raw body.
 */
final class HostilePayloads {

    private HostilePayloads() {
    }

    static final String SCRIPT = "<script>alert('pwn')</script>";

    /** Values to put where a parameter goes (already decoded: callers encode them as needed). */
    static List<String> values() {
        List<String> v = new ArrayList<>(List.of(
                "", " ", "null", "undefined", "0", "-1", "99999999999999999999", "true", "[]", "{}",
                SCRIPT, "\"><img src=x onerror=alert(1)>", "javascript:alert(1)", "' OR '1'='1", "'; DROP TABLE users; --",
                "1; SELECT pg_sleep(5)", "\\", "\\\\", "%00", "%", "%zz", "%C0%AF", "..%2f..%2fetc%2fpasswd", "../../../../etc/passwd",
                "..\\..\\windows\\win.ini", "/etc/passwd\u0000.png", "a\u0000b", "a\rb", "a\nb", "line\r\nSet-Cookie: x=1",
                "https://evil.example.com/cb", "https://evil.example.com/cb%0d%0aLocation:%20https://evil.example.com",
                "http://127.0.0.1:1/cb", "file:///etc/passwd", "data:text/html,<script>alert(1)</script>",
                "\u202Eevil", "\uFEFFbom", "\uD800", "\uDFFF", "😀".repeat(100), "é".repeat(3000),
                "A".repeat(4097), "A".repeat(70_000), "${jndi:ldap://127.0.0.1:1/a}", "#{7*7}", "{{7*7}}",
                "<!--", "]]>", "&amp;", "%u0041", "+", "=", "&", "?", "#frag", "S256", "plain", "code", "token",
                "openid openid", "openid\tprofile", "OPENID"));
        return v;
    }

    /** Whole request bodies for endpoints that take JSON or forms. */
    static List<String> bodies() {
        List<String> b = new ArrayList<>(List.of(
                "", " ", "{", "}", "[", "{}", "[]", "null", "0", "\"x\"", "{\"a\":}", "{\"a\" \"b\"}", "{'a':'b'}",
                "{\"a\":\"b\",\"a\":\"c\"}", "{\"grant_type\":[\"authorization_code\"]}", "{\"grant_type\":{\"x\":1}}",
                "{\"grant_type\":1}", "{\"grant_type\":null}", "{\"a\":\"\\u0000\"}", "{\"a\":\"\\ud800\"}",
                "[".repeat(10_000), "{\"a\":".repeat(5000), "{\"a\":\"" + "x".repeat(70_000) + "\"}",
                "a=b&a=c", "=&=&=", "%zz=1", "a=%zz", "a=%00", "&&&&", "a==b", "\u0000\u0001\u0002",
                "grant_type=authorization_code&grant_type=refresh_token", "client_id=x&client_id=y",
                "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>"));
        for (String v : values()) {
            b.add("{\"client_id\":" + json(v) + ",\"grant_type\":" + json(v) + ",\"code\":" + json(v) + "}");
        }
        return b;
    }

    static String json(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
