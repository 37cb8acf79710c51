package dev.portcullis.protocol;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Portcullis username: 1 to {@value #MAX_LENGTH} characters of lower-case letters, digits and {@code . _ @ + -},
 * starting with a letter or digit. What someone types is stripped and lower-cased first, so usernames are
 * case-insensitive; a directory entry's name must already have this shape to get a row.
 */
public record Username(String value) {

    public static final int MAX_LENGTH = 100;

    /** The rule in the admin API's words, for the refusal of a name that breaks it. */
    public static final String RULE = "1 to " + MAX_LENGTH
            + " characters of letters, digits and . _ @ + - (starting with a letter or digit)";

    private static final Pattern SHAPE = Pattern.compile("[a-z0-9][a-z0-9._@+-]{0," + (MAX_LENGTH - 1) + "}");

    public Username {
        if (!isWellFormed(value)) {
            throw new IllegalArgumentException("not a username: " + RULE);
        }
    }

    /** What was typed, stripped and lower-cased; empty when that is not a username. */
    public static Optional<Username> parse(String typed) {
        String u = typed == null ? "" : typed.strip().toLowerCase(Locale.ROOT);
        return isWellFormed(u) ? Optional.of(new Username(u)) : Optional.empty();
    }

    /** Whether {@code lowerCased} has the shape of a username as it is (nothing stripped or lower-cased). */
    public static boolean isWellFormed(String lowerCased) {
        return lowerCased != null && SHAPE.matcher(lowerCased).matches();
    }

    @Override
    public String toString() {
        return value;
    }
}
