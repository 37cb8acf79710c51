package dev.portcullis.declarative;

import dev.portcullis.protocol.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What applying a configuration document does, or did, item by item: created, changed, unchanged or removed. */
public final class Plan {

    /** The action on one item. */
    public enum Action {
        CREATED, CHANGED, UNCHANGED, REMOVED;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One item: its kind (client, api, group, user), its key, the action and, for a change, the fields. */
    public record Item(String kind, String key, Action action, List<String> fields) {
    }

    private final List<Item> items = new ArrayList<>();

    void add(String kind, String key, Action action, List<String> fields) {
        items.add(new Item(kind, key, action, List.copyOf(fields)));
    }

    public List<Item> items() {
        return List.copyOf(items);
    }

    /** Whether anything was (or would be) written. */
    public boolean changesAnything() {
        return items.stream().anyMatch(i -> i.action() != Action.UNCHANGED);
    }

    /** The answer of {@code POST /admin/config}. */
    public JsonObject toJson(boolean dryRun) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Action a : Action.values()) {
            counts.put(a.word(), 0);
        }
        JsonArrayBuilder all = JsonSupport.JSON.createArrayBuilder();
        for (Item i : items) {
            counts.merge(i.action().word(), 1, Integer::sum);
            JsonObjectBuilder o = JsonSupport.JSON.createObjectBuilder().add("kind", i.kind()).add("key", i.key())
                    .add("action", i.action().word());
            if (!i.fields().isEmpty()) {
                JsonArrayBuilder f = JsonSupport.JSON.createArrayBuilder();
                i.fields().forEach(f::add);
                o.add("fields", f);
            }
            all.add(o);
        }
        JsonObjectBuilder summary = JsonSupport.JSON.createObjectBuilder();
        counts.forEach(summary::add);
        return JsonSupport.JSON.createObjectBuilder().add("dry_run", dryRun).add("summary", summary)
                .add("items", all).build();
    }
}
