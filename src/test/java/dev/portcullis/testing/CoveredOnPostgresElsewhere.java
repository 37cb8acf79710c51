package dev.portcullis.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Leaves out of Payara Micro's PostgreSQL pass the tests that WildFly's pass runs on PostgreSQL anyway, so every test
 * still runs once on each database and each server kind, and CI stays within its time budget (docs/servers.md).
 *
 * <p>The list is failsafe's own selection for WildFly ({@code it.wildfly}: {@code Class} or {@code Class#m1+m2*},
 * comma-separated), handed over in {@code portcullis.test.postgres-covered-by-wildfly} only when the full-server
 * passes run; tests WildFly's pass excludes ({@code mp-openapi}) stay. Without the property nothing is left out, so
 * a targeted run ({@code -Dit.test=…}) runs what it names.
 */
public class CoveredOnPostgresElsewhere implements PostDiscoveryFilter {

    static final String PROPERTY = "portcullis.test.postgres-covered-by-wildfly";
    private static final TestTag NOT_ON_WILDFLY = TestTag.create("mp-openapi");

    private final List<Selection> covered;

    public CoveredOnPostgresElsewhere() {
        this(System.getProperty("portcullis.test.database", "").equals("postgres")
                && ItEnvironment.fullServer() == null ? System.getProperty(PROPERTY, "") : "");
    }

    CoveredOnPostgresElsewhere(String wildflySelection) {
        covered = parse(wildflySelection);
    }

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (covered.isEmpty() || descriptor.getTags().contains(NOT_ON_WILDFLY)) {
            return FilterResult.included(null);
        }
        Optional<TestSource> source = descriptor.getSource();
        String className;
        String method;
        if (source.isPresent() && source.get() instanceof MethodSource m) {
            className = m.getClassName();
            method = m.getMethodName();
        } else if (source.isPresent() && source.get() instanceof ClassSource c) {
            className = c.getClassName();
            method = null;
        } else {
            return FilterResult.included(null);
        }
        String simpleName = className.substring(className.lastIndexOf('.') + 1);
        for (Selection s : covered) {
            if (s.covers(simpleName, method)) {
                return FilterResult.excluded("runs on PostgreSQL in WildFly's pass");
            }
        }
        return FilterResult.included(null);
    }

    /** One entry of failsafe's {@code test} parameter: a class, and the method patterns after {@code #} if any. */
    record Selection(String className, List<Pattern> methods) {
        boolean covers(String simpleName, String method) {
            if (!className.equals(simpleName)) {
                return false;
            }
            if (methods.isEmpty()) {
                return true;
            }
            // a class-level descriptor of a filtered class stays: its other methods run here
            return method != null && methods.stream().anyMatch(p -> p.matcher(method).matches());
        }
    }

    static List<Selection> parse(String selection) {
        List<Selection> result = new ArrayList<>();
        for (String entry : selection.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int hash = e.indexOf('#');
            String cls = hash < 0 ? e : e.substring(0, hash);
            List<Pattern> methods = new ArrayList<>();
            if (hash >= 0) {
                for (String m : e.substring(hash + 1).split("\\+")) {
                    if (!m.isBlank()) {
                        methods.add(Pattern.compile(Pattern.quote(m.trim()).replace("*", "\\E.*\\Q")));
                    }
                }
            }
            result.add(new Selection(cls.trim(), List.copyOf(methods)));
        }
        return List.copyOf(result);
    }
}
