package dev.portcullis.app;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.MappingMatch;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses, before any parser sees them, requests that no Portcullis endpoint can read — so the container's and
 * Jersey's parsers never fail on them with a 500:
 * <ul>
 * <li>a Content-Type given twice (400), malformed (400), with a charset this JVM does not know (415), or a multipart
 * body: no endpoint takes one, and refusing it keeps the container's multipart parser (and its temporary files) out
 * of reach (415);</li>
 * <li>a method the sign-in pages (GET, HEAD, POST) or the static files (GET, HEAD) do not answer (405 with
 * {@code Allow}); the JAX-RS endpoints answer their own 405s ({@link UnexpectedExceptionMapper}).</li>
 * </ul>
 * Every refusal has the endpoint's error shape ({@link ErrorAnswer}): JSON on the API paths, a page elsewhere.
 */
@WebFilter(filterName = "RequestShapeFilter", urlPatterns = "/*", asyncSupported = true)
public class RequestShapeFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Set<String> PAGE_METHODS = Set.of("GET", "HEAD", "POST");
    private static final Set<String> STATIC_METHODS = Set.of("GET", "HEAD");

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        String path = req.getRequestURI().substring(req.getContextPath().length());
        // an encoded NUL in the path: Grizzly (Payara) refuses it itself, Undertow (WildFly) decodes it into a path
        // parameter, which PostgreSQL would refuse as a database error
        if (path.contains("%00")) {
            badRequest("The request path contains a NUL character").write(path, res);
            return;
        }
        Set<String> allowed = allowedMethods(req.getHttpServletMapping());
        if (allowed != null && !allowed.contains(req.getMethod())) {
            res.setHeader("Allow", String.join(", ", allowed.stream().sorted().toList()));
            ErrorAnswer.forStatus(405).write(path, res);
            return;
        }
        Optional<ErrorAnswer> refused = contentTypeProblem(Collections.list(req.getHeaders("Content-Type")));
        if (refused.isPresent()) {
            refused.get().write(path, res);
            return;
        }
        chain.doFilter(req, res);
    }

    /** The methods a servlet other than JAX-RS answers, or null where the servlet decides itself. */
    private static Set<String> allowedMethods(HttpServletMapping mapping) {
        MappingMatch match = mapping == null ? null : mapping.getMappingMatch();
        if (match == MappingMatch.EXTENSION) {
            return PAGE_METHODS; // the Faces pages, *.xhtml
        }
        if (match == MappingMatch.DEFAULT || match == MappingMatch.CONTEXT_ROOT) {
            return STATIC_METHODS; // the container's file servlet: stylesheet, index page, unknown paths
        }
        return null;
    }

    /** Why the Content-Type header(s) cannot be read by any endpoint, if they cannot; empty when fine or absent. */
    static Optional<ErrorAnswer> contentTypeProblem(List<String> values) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            return Optional.of(badRequest("More than one Content-Type header"));
        }
        String[] parts = values.get(0).split(";", -1);
        String type = parts[0].trim().toLowerCase(Locale.ROOT);
        int slash = type.indexOf('/');
        if (slash <= 0 || slash == type.length() - 1 || !isToken(type.substring(0, slash))
                || !isToken(type.substring(slash + 1))) {
            return Optional.of(badRequest("Malformed Content-Type header"));
        }
        if (type.startsWith("multipart/")) {
            return Optional.of(unsupported("Multipart request bodies are not accepted"));
        }
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].trim();
            if (param.isEmpty()) {
                continue;
            }
            int eq = param.indexOf('=');
            String name = eq < 0 ? param : param.substring(0, eq).trim();
            String value = eq < 0 ? "" : unquote(param.substring(eq + 1).trim());
            if (eq <= 0 || !isToken(name) || value == null) {
                return Optional.of(badRequest("Malformed Content-Type header"));
            }
            if (name.equalsIgnoreCase("charset") && !supported(value)) {
                return Optional.of(unsupported("Unsupported charset in Content-Type; use UTF-8"));
            }
        }
        return Optional.empty();
    }

    private static boolean supported(String charset) {
        try {
            return Charset.isSupported(charset);
        } catch (IllegalArgumentException e) { // illegal or empty name
            return false;
        }
    }

    /** A parameter value without its quotes; null when a quoted string is not closed. */
    private static String unquote(String v) {
        if (!v.startsWith("\"")) {
            return isToken(v) ? v : null;
        }
        return v.length() >= 2 && v.endsWith("\"") ? v.substring(1, v.length() - 1) : null;
    }

    /** An RFC 9110 token: visible ASCII except delimiters. */
    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static ErrorAnswer badRequest(String description) {
        return ErrorAnswer.problem(400, description);
    }

    private static ErrorAnswer unsupported(String description) {
        return ErrorAnswer.problem(415, description);
    }
}
