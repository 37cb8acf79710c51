package dev.portcullis.testing;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A small HTTP client for tests: never follows redirects (tests assert them), keeps no cookies unless a
 * {@link java.net.CookieHandler} is given, and parses JSON with Nimbus' JSON utilities.
 */
public final class Http {

    private final String base;
    private final HttpClient client;

    public Http(String base) {
        // HTTP/1.1 as browsers and backends speak to an identity provider; no h2c upgrade dance
        this(base, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10)).build());
    }

    public Http(String base, HttpClient client) {
        this.base = base;
        this.client = client;
    }

    public String base() {
        return base;
    }

    public HttpClient client() {
        return client;
    }

    /** A response with its body as text, plus JSON helpers. */
    public record Res(int status, HttpResponse<String> raw) {
        public String body() {
            return raw.body();
        }

        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        public Map<String, Object> json() {
            try {
                return JSONObjectUtils.parse(raw.body());
            } catch (ParseException e) {
                throw new AssertionError("Not a JSON object (HTTP " + status + "): " + raw.body(), e);
            }
        }

        public String jsonString(String field) {
            Object v = json().get(field);
            return v == null ? null : v.toString();
        }

        @Override
        public String toString() {
            return "HTTP " + status + " " + raw.headers().map() + "\n" + raw.body();
        }
    }

    public HttpRequest.Builder request(String pathOrUrl) {
        String url = pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl;
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
    }

    public Res send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Res(r.statusCode(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Res get(String path, String... headers) {
        HttpRequest.Builder b = request(path).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public Res postJson(String path, String json, String... headers) {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public Res postForm(String path, Map<String, String> form, String... headers) {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(form)));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public Res post(String path, String contentType, String body, String... headers) {
        HttpRequest.Builder b = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    /**
     * A GET sent over a plain socket, byte for byte: for request targets that java.net.URI refuses to build
     * (broken percent-escapes, raw non-ASCII). Reads one response (Connection: close).
     */
    public RawRes rawGet(String pathAndQuery) {
        return raw("GET", pathAndQuery, List.of(), null);
    }

    /**
     * A request sent over a plain socket, method and target byte for byte (a target java.net.URI would refuse or
     * normalise), with extra header lines and an optional form body. Reads one response (Connection: close).
     */
    public RawRes raw(String method, String target, List<String> headers, String formBody) {
        URI b = URI.create(base);
        try (java.net.Socket s = new java.net.Socket(b.getHost(), b.getPort())) {
            s.setSoTimeout(60_000);
            StringBuilder req = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ")
                    .append(b.getHost()).append(':').append(b.getPort()).append("\r\nConnection: close\r\n");
            headers.forEach(h -> req.append(h).append("\r\n"));
            byte[] body = formBody == null ? new byte[0] : formBody.getBytes(StandardCharsets.UTF_8);
            if (formBody != null) {
                req.append("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ").append(body.length)
                        .append("\r\n");
            }
            s.getOutputStream().write(req.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(body);
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int headEnd = all.indexOf("\r\n\r\n");
            String head = headEnd < 0 ? all : all.substring(0, headEnd);
            int status = Integer.parseInt(head.split(" ", 3)[1]);
            return new RawRes(status, head, headEnd < 0 ? "" : all.substring(headEnd + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Status, raw header block and body of a {@link #rawGet}. */
    public record RawRes(int status, String head, String body) {
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /** A PATCH with a JSON merge patch body (RFC 7396). */
    public Res patch(String path, String contentType, String body, String... headers) {
        HttpRequest.Builder b = request(path).header("Content-Type", contentType).header("Accept", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public Res delete(String path, String... headers) {
        HttpRequest.Builder b = request(path).DELETE();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public static String form(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    public static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** {@code params} with key/value {@code overrides} applied in order (a null value removes the key). */
    public static Map<String, String> overridden(Map<String, String> params, String... overrides) {
        for (int i = 0; i < overrides.length; i += 2) {
            if (overrides[i + 1] == null) {
                params.remove(overrides[i]);
            } else {
                params.put(overrides[i], overrides[i + 1]);
            }
        }
        return params;
    }

    /** Parses a query string (or the query of a URL) into a map; later duplicates win. */
    public static Map<String, String> query(String urlOrQuery) {
        String q = urlOrQuery.contains("?") ? urlOrQuery.substring(urlOrQuery.indexOf('?') + 1) : urlOrQuery;
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : q.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            out.put(java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** A JSON string literal, for building request bodies. */
    public static String q(String s) {
        return JSONObjectUtils.toJSONString(Map.of("v", s)).replaceFirst("^\\{\"v\":", "").replaceFirst("}$", "");
    }
}
