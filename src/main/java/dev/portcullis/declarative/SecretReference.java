package dev.portcullis.declarative;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A secret named in a configuration document by where it is, never by its value: {@code ${env:NAME}} (an environment
 * variable) or {@code ${file:/path}} (a file's content without its trailing line break, as container secrets are
 * mounted). A literal value is refused, so a secret never ends up in a file that is versioned and reviewed.
 */
final class SecretReference {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(env|file):([^}]+)}");
    /** The shortest secret accepted: 32 characters, as strong as a random 192-bit value in base64. */
    static final int MIN_LENGTH = 32;

    private SecretReference() {
    }

    /**
     * The secret {@code reference} names.
     *
     * @throws DocumentError at {@code path} when it is not a reference, or names nothing readable, or too short
     */
    static String resolve(String path, String reference, Function<String, String> environment) {
        Matcher m = REFERENCE.matcher(reference);
        if (!m.matches()) {
            throw new DocumentError(path, "must be a reference, ${env:NAME} or ${file:/path}, never the secret itself");
        }
        String value = m.group(1).equals("env") ? Optional.ofNullable(environment.apply(m.group(2)))
                .orElseThrow(() -> new DocumentError(path, "the environment variable " + m.group(2) + " is not set"))
                : read(path, m.group(2));
        if (value.length() < MIN_LENGTH) {
            throw new DocumentError(path, "the secret it names is shorter than " + MIN_LENGTH + " characters");
        }
        return value;
    }

    private static String read(String path, String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            throw new DocumentError(path, "the file " + file + " cannot be read");
        }
    }
}
