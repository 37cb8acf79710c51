package dev.portcullis.declarative;

import dev.portcullis.audit.Actor;
import dev.portcullis.config.ConfigurationImportSettings;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * At start-up, after the migration and the built-in clients, applies the document {@code portcullis.config.import}
 * names. A document that cannot be applied refuses the start with its JSON path and the reason; instances starting
 * together apply it one after the other (the configuration lock), and the later ones find nothing to change.
 */
@Startup
@Singleton
@DependsOn({"DatabaseMigration", "OwnPageClientsStartup"})
@TransactionManagement(TransactionManagementType.BEAN)
public class ConfigurationImportStartup {

    private static final Logger LOG = Logger.getLogger(ConfigurationImportStartup.class.getName());
    /** The actor of the start-up import in the audit trail. */
    static final Actor STARTUP = new Actor("config-import", null);

    @Inject
    ConfigurationImportSettings settings;

    @Inject
    ConfigurationService service;

    @PostConstruct
    void importDocument() {
        if (settings.path().isEmpty()) {
            return;
        }
        String file = settings.path().get();
        String text;
        try {
            text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw refused(file, "the file cannot be read");
        }
        try {
            Plan plan = service.apply(text, false, STARTUP);
            LOG.info(() -> "Applied the configuration document " + file + ": "
                    + plan.toJson(false).getJsonObject("summary"));
        } catch (DocumentError e) {
            throw refused(file, e.getMessage());
        }
    }

    private static IllegalStateException refused(String file, String why) {
        String message = "portcullis.config.import: the configuration document " + file + " cannot be applied: "
                + why;
        LOG.severe(message);
        return new IllegalStateException(message);
    }
}
