package dev.portcullis.declarative;

import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.JsonSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonConfig;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Map;

/**
 * Configuration as code: export what is registered as a document ({@link ConfigurationDocument}), and apply a
 * document, or plan it without writing (a dry run), through {@link ConfigurationApplier}.
 */
@ApplicationScoped
public class ConfigurationService {

    private static final JsonReaderFactory READERS =
            JsonSupport.JSON.createReaderFactory(Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE));

    @Inject
    ConfigurationDocument document;

    @Inject
    ConfigurationApplier applier;

    public JsonObject export() {
        return document.export();
    }

    /**
     * Applies the document {@code text} (or only plans it when {@code dryRun}) as {@code actor}'s change.
     *
     * @throws DocumentError at the JSON path of what cannot be applied; nothing is written then
     */
    public Plan apply(String text, boolean dryRun, Actor actor) {
        JsonObject json = parse(text);
        try {
            return applier.apply(json, dryRun, actor);
        } catch (ConfigurationApplier.DryRun planned) {
            return planned.plan;
        }
    }

    static JsonObject parse(String text) {
        if (text == null || text.isBlank()) {
            throw new DocumentError("$", "the document must be a JSON object");
        }
        JsonValue v;
        try (JsonReader r = READERS.createReader(new StringReader(text))) {
            v = r.readValue();
        } catch (RuntimeException e) {
            throw new DocumentError("$", "not valid JSON (or a key repeated)");
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new DocumentError("$", "the document must be a JSON object");
        }
        return v.asJsonObject();
    }
}
