package dev.portcullis.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The full-server passes select their classes by name in pom.xml ({@code it.servers.set}, {@code it.wildfly},
 * {@code it.payara-server}: {@code Class} or {@code Class#m1+m2*}, comma-separated), and failsafe runs whatever
 * matches without complaint: a renamed class or method would silently drop out of a server's pass. So every entry
 * must name an existing integration test class, and every method pattern must match one of its test methods; and
 * every class the Payara Micro passes exclude by file name must exist too.
 */
class ServerSelectionTest {

    private static final List<String> SELECTIONS = List.of("it.servers.set", "it.wildfly", "it.payara-server");
    private static final Path TEST_SOURCES = Path.of("src", "test", "java");

    private static Document pom() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read pom.xml", e);
        }
    }

    /** The project's {@code <properties>}, with {@code ${…}} references to each other resolved. */
    static Map<String, String> properties(Document pom) {
        Map<String, String> raw = new LinkedHashMap<>();
        Element project = pom.getDocumentElement();
        for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("properties")) {
                for (Node p = e.getFirstChild(); p != null; p = p.getNextSibling()) {
                    if (p instanceof Element pe) {
                        raw.put(pe.getTagName(), pe.getTextContent().trim());
                    }
                }
            }
        }
        Map<String, String> resolved = new LinkedHashMap<>();
        raw.keySet().forEach(k -> resolved.put(k, resolve(raw, raw.get(k), 0)));
        return resolved;
    }

    private static String resolve(Map<String, String> props, String value, int depth) {
        assertTrue(depth < 10, "property references nest too deep: " + value);
        Matcher m = Pattern.compile("\\$\\{([^}]+)}").matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String ref = props.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(ref == null ? m.group() : resolve(props, ref, depth + 1)));
        }
        return m.appendTail(out).toString();
    }

    /** The test class of that simple name under src/test/java, loaded; the test fails when there is none. */
    static Class<?> testClass(String simpleName) {
        try (Stream<Path> files = Files.walk(TEST_SOURCES)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().equals(simpleName + ".java")).toList();
            assertEquals(1, found.size(), () -> "no single test class " + simpleName + " under " + TEST_SOURCES);
            String name = TEST_SOURCES.relativize(found.get(0)).toString().replaceAll("\\.java$", "")
                    .replace(java.io.File.separatorChar, '.');
            return Class.forName(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(simpleName + " is not compiled", e);
        }
    }

    /** The test methods of {@code c} and its superclasses (what failsafe's method filter can match). */
    static List<String> testMethods(Class<?> c) {
        List<String> names = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Test.class) || m.isAnnotationPresent(ParameterizedTest.class)) {
                    names.add(m.getName());
                }
            }
        }
        return names;
    }

    /** What is wrong with one entry of a selection ({@code Class} or {@code Class#m1+m2*}), or an empty list. */
    static List<String> problems(String entry) {
        List<String> problems = new ArrayList<>();
        String[] parts = entry.split("#", 2);
        if (!parts[0].matches("[A-Za-z0-9_]+IT")) {
            return List.of(entry + ": not the simple name of an integration test class (…IT)");
        }
        Class<?> c = testClass(parts[0]);
        if (parts.length == 2) {
            List<String> methods = testMethods(c);
            for (String pattern : parts[1].split("\\+")) {
                String regex = Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote)
                        .reduce((a, b) -> a + ".*" + b).orElseThrow();
                if (pattern.isBlank() || methods.stream().noneMatch(m -> m.matches(regex))) {
                    problems.add(entry + ": no test method of " + parts[0] + " matches " + pattern);
                }
            }
        }
        return problems;
    }

    @Test
    void everyServerPassEntryNamesAnExistingClassAndMethods() {
        Map<String, String> props = properties(pom());
        List<String> problems = new ArrayList<>();
        for (String selection : SELECTIONS) {
            String value = props.get(selection);
            assertTrue(value != null && !value.isBlank(), selection + " is missing from pom.xml");
            assertFalse(value.contains("${"), () -> selection + " refers to an unknown property: " + value);
            for (String entry : value.split(",")) {
                problems.addAll(problems(entry.trim()).stream().map(p -> selection + ": " + p).toList());
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyClassTheMicroPassesExcludeExists() {
        NodeList excludes = pom().getElementsByTagName("exclude");
        int named = 0;
        for (int i = 0; i < excludes.getLength(); i++) {
            Matcher m = Pattern.compile("\\*\\*/(\\w+)\\.java").matcher(excludes.item(i).getTextContent().trim());
            if (m.matches()) {
                testClass(m.group(1));
                named++;
            }
        }
        assertTrue(named > 0, "the Payara Micro passes exclude the WildFly-only class by name");
    }

    @Test
    void aRenamedClassOrMethodIsCaught() {
        assertEquals(List.of(), problems("HostileProtocolInputIT#authorizeEndpoint+token*"));
        assertEquals(1, problems("HostileProtocolInputIT#authorizeEndpoint+noSuchMethod*").size());
        assertEquals(1, problems("HostileProtocolInputIT#").size());
        assertEquals(1, problems("ServerSelectionTest").size());
        try {
            problems("NoSuchClassIT");
        } catch (AssertionError expected) {
            return;
        }
        fail("a missing class must fail the check");
    }
}
