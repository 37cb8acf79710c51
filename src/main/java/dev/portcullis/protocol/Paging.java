package dev.portcullis.protocol;

/** Parses {@code offset} / {@code limit} query parameters; garbage is invalid_request, not a 404. */
public final class Paging {

    private Paging() {
    }

    public static int offset(String raw) {
        return parse("offset", raw, 0, 0, Integer.MAX_VALUE);
    }

    public static int limit(String raw, int max) {
        return parse("limit", raw, Math.min(100, max), 1, max);
    }

    private static int parse(String name, String raw, int def, int min, int max) {
        if (raw == null || raw.isEmpty()) {
            return def;
        }
        try {
            int v = Integer.parseInt(raw);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw OAuthException.invalidRequest(name + ": must be a whole number from " + min + " to " + max);
    }
}
