package dev.portcullis.config;

import java.util.Optional;

/**
 * Configuration as code: {@code portcullis.config.import}, the path of a document applied at start-up (unset, nothing
 * is imported), and {@code portcullis.config.max-document-bytes}, the largest document {@code POST /admin/config}
 * takes: an estate's export outgrows the request limit of every other endpoint.
 */
public record ConfigurationImportSettings(Optional<String> path, int maxDocumentBytes) {

    static ConfigurationImportSettings load(PortcullisConfig.Source c) {
        return new ConfigurationImportSettings(c.getOptionalValue("portcullis.config.import").map(String::trim)
                .filter(s -> !s.isEmpty()),
                PortcullisConfig.integer(c, "portcullis.config.max-document-bytes", 4_194_304, 65_536, 67_108_864));
    }
}
