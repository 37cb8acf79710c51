package dev.portcullis.config;

import java.util.Optional;

/**
 * {@code portcullis.config.import}: the path of a configuration document (configuration as code) applied at start-up;
 * unset, nothing is imported.
 */
public record ConfigurationImportSettings(Optional<String> path) {

    static ConfigurationImportSettings load(PortcullisConfig.Source c) {
        return new ConfigurationImportSettings(c.getOptionalValue("portcullis.config.import").map(String::trim)
                .filter(s -> !s.isEmpty()));
    }
}
