package dev.portcullis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The table → owner list of {@link ArchitectureTest} against the sources: it names every table the migrations
 * create, each owner is named ...Repository, SQL naming a hot-path table appears in its owner class only (and none
 * names an aggregate's table, which only JPQL reaches), and the persistence unit lists exactly the entity classes.
 */
class TableOwnersTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");

    @Test
    void everyTableHasAnOwner() throws IOException {
        Set<String> created = new TreeSet<>();
        Pattern create = Pattern.compile("CREATE TABLE (\\w+)", Pattern.CASE_INSENSITIVE);
        for (Path sql : files(MIGRATIONS, ".sql")) {
            Matcher m = create.matcher(Files.readString(sql));
            while (m.find()) {
                created.add(m.group(1).toLowerCase(Locale.ROOT));
            }
        }
        Set<String> owned = new TreeSet<>(ArchitectureTest.JDBC_TABLE_OWNERS.keySet());
        owned.addAll(ArchitectureTest.JPA_TABLE_OWNERS.keySet());
        assertEquals(created, owned);
    }

    /** One name for one role: a table's owner is its repository, whatever its access technology. */
    @Test
    void everyOwnerIsNamedRepository() {
        Set<String> owners = new TreeSet<>(ArchitectureTest.JDBC_TABLE_OWNERS.values());
        owners.addAll(ArchitectureTest.JPA_TABLE_OWNERS.values());
        owners.removeIf(owner -> owner.endsWith("Repository"));
        assertEquals(Set.of(), owners);
    }

    @Test
    void sqlNamesATableInItsJdbcOwnerOnly() throws IOException {
        Map<String, String> sqlOwners = new HashMap<>(ArchitectureTest.JDBC_TABLE_OWNERS);
        ArchitectureTest.JPA_TABLE_OWNERS.keySet().forEach(table -> sqlOwners.put(table, "(none: JPQL only)"));
        Set<String> offenders = new HashSet<>();
        for (Path java : files(MAIN, ".java")) {
            String source = Files.readString(java);
            String className = MAIN.relativize(java).toString().replace('/', '.').replaceFirst("\\.java$", "");
            sqlOwners.forEach((table, owner) -> {
                Pattern inSql = Pattern.compile("(FROM|INTO|UPDATE|JOIN|deleteInChunks\\(\")\\s*" + table + "\\b");
                if (!className.equals(owner) && inSql.matcher(source).find()) {
                    offenders.add(className + " → " + table);
                }
            });
        }
        assertTrue(offenders.isEmpty(), "SQL on a table outside its JDBC owner: " + offenders);
    }

    @Test
    void persistenceUnitListsExactlyTheEntities() throws IOException {
        Set<String> entities = new TreeSet<>();
        for (Path java : files(MAIN, ".java")) {
            String source = Files.readString(java);
            if (source.contains("\n@Entity") || source.contains("\n@Converter")) {
                entities.add(MAIN.relativize(java).toString().replace('/', '.').replaceFirst("\\.java$", ""));
            }
        }
        Set<String> listed = new TreeSet<>();
        Matcher m = Pattern.compile("<class>([\\w.]+)</class>")
                .matcher(Files.readString(Path.of("src/main/resources/META-INF/persistence.xml")));
        while (m.find()) {
            listed.add(m.group(1));
        }
        assertEquals(entities, listed);
    }

    private static List<Path> files(Path root, String suffix) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
