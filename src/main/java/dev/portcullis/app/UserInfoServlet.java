package dev.portcullis.app;

import dev.portcullis.protocol.NoStoreJson;
import dev.portcullis.protocol.OAuthError;
import dev.portcullis.protocol.OAuthException;
import dev.portcullis.tokenuse.DpopPresentation;
import dev.portcullis.tokenuse.UserInfoEndpoint;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The HTTP side of {@link UserInfoEndpoint}, as a plain servlet rather than a JAX-RS resource: relying parties call
 * userinfo on every request they serve, and JAX-RS's dispatch was a third of the endpoint's CPU
 * (docs/performance.md). The exact mapping wins over the {@code /oauth/*} JAX-RS servlet. The answers keep the JAX-RS
 * endpoints' shapes: protocol errors as {@link OAuthException} JSON, any other failure through
 * {@link UnexpectedExceptionMapper} (503 for the database, 413 for a body over the limit, 400 for one cut short), 405
 * with {@code Allow} for a method it does not answer, 406 for an {@code Accept} without JSON.
 */
@WebServlet(name = "UserInfoServlet", urlPatterns = {"/oauth/userinfo", "/oauth/userinfo/"})
public class UserInfoServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    static final String ALLOW = "GET, HEAD, OPTIONS, POST";

    @Inject
    transient UserInfoEndpoint endpoint;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException, ServletException {
        switch (req.getMethod()) {
            case "GET", "HEAD", "POST" -> super.service(req, res); // HEAD: HttpServlet runs doGet without the body
            case "OPTIONS" -> res.setHeader("Allow", ALLOW);
            default -> {
                res.setHeader("Allow", ALLOW);
                ErrorAnswer.forStatus(405).write(req.getRequestURI(), res);
            }
        }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        answer(req, res, false);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
        answer(req, res, true);
    }

    private void answer(HttpServletRequest req, HttpServletResponse res, boolean post) throws IOException {
        try {
            if (!acceptsJson(req.getHeader("Accept"))) {
                ErrorAnswer.forStatus(406).write(req.getRequestURI(), res);
                return;
            }
            Optional<String> formToken = post ? UserInfoEndpoint.formToken(req.getContentType(), body(req))
                    : Optional.empty();
            Optional<String> dpopToken = DpopPresentation.dpopToken(req.getHeader("Authorization"));
            if (dpopToken.isPresent()) {
                // a DPoP token travels in the header only, with its proof
                if (formToken.isPresent() || namesAccessToken(req.getQueryString())) {
                    throw OAuthException.invalidRequest("Send the access token one way only: in the header");
                }
                NoStoreJson.write(res, 200, endpoint.claimsWithProof(dpopToken.get(), DpopPresentation.proofs(req),
                        req.getMethod()));
                return;
            }
            String token = UserInfoEndpoint.presentedToken(req.getHeader("Authorization"),
                    namesAccessToken(req.getQueryString()), formToken);
            NoStoreJson.write(res, 200, endpoint.claims(token));
        } catch (OAuthException e) {
            e.write(res);
        } catch (IOException | RuntimeException e) {
            UnexpectedExceptionMapper.write(e, req, res);
        }
    }

    /**
     * The request body in its declared charset (UTF-8 by default, web.xml); read through
     * {@link RequestBodyLimitFilter}'s limit. {@link RequestShapeFilter} has refused unknown charsets already.
     */
    private static String body(HttpServletRequest req) throws IOException {
        Charset charset;
        try {
            charset = req.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                    : Charset.forName(req.getCharacterEncoding());
        } catch (IllegalArgumentException e) {
            throw new OAuthException(OAuthError.INVALID_REQUEST, "Unsupported charset in Content-Type; use UTF-8", 415);
        }
        return new String(req.getInputStream().readAllBytes(), charset);
    }

    /**
     * Whether an {@code Accept} header admits {@code application/json} (RFC 9110 12.5.1): no header, or a range
     * {@code application/json}, {@code application/*} or {@code *}{@code /*} without {@code q=0}. A range that cannot
     * be read admits nothing.
     */
    static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            if (!type.equals("application/json") && !type.equals("application/*") && !type.equals("*/*")) {
                continue;
            }
            boolean refused = false;
            for (int i = 1; i < parts.length; i++) {
                String param = parts[i].trim().toLowerCase(Locale.ROOT);
                if (param.startsWith("q=")) {
                    refused = !positive(param.substring(2).trim());
                }
            }
            if (!refused) {
                return true;
            }
        }
        return false;
    }

    /** An RFC 9110 qvalue above zero; anything that is not a qvalue is not. */
    private static boolean positive(String q) {
        if (!q.matches("0(\\.\\d{0,3})?|1(\\.0{0,3})?")) {
            return false;
        }
        return Double.parseDouble(q) > 0;
    }

    /** Whether the query string has a parameter named {@code access_token}, percent-encoded or not. */
    static boolean namesAccessToken(String query) {
        if (query == null) {
            return false;
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            try {
                name = URLDecoder.decode(name, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // a broken escape is not a name that decodes to access_token: compare it as sent
            }
            if (name.equals("access_token")) {
                return true;
            }
        }
        return false;
    }
}
