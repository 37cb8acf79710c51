package dev.portcullis.bench;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.text.ParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One HTTP response as the load generator sees it: status, headers (names lower-cased) and the body as text. */
public record Reply(int status, Map<String, List<String>> headers, String body) {

    public String header(String name) {
        List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    public List<String> headers(String name) {
        return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }

    /** The body as a JSON object, or a {@link FlowFailure} naming the step when it is not one. */
    public Map<String, Object> json(String step) {
        try {
            return JSONObjectUtils.parse(body);
        } catch (ParseException | RuntimeException e) {
            throw new FlowFailure(step + ": body is not a JSON object (HTTP " + status + ")", this);
        }
    }

    /** A short description for error samples: status and the start of the body (never more than 300 chars). */
    public String brief() {
        String b = body == null ? "" : body.replaceAll("\\s+", " ");
        return "HTTP " + status + (b.isEmpty() ? "" : " " + (b.length() > 300 ? b.substring(0, 300) + "..." : b));
    }
}
