package dev.portcullis.config;

/** An invalid setting. The message names the key and its environment variable so the operator can fix it. */
public class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigurationException(String key, String problem) {
        super("Invalid configuration: " + key + " (" + envName(key) + ") " + problem);
    }

    /** The environment variable form of a MicroProfile Config key. */
    public static String envName(String key) {
        return key.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }
}
