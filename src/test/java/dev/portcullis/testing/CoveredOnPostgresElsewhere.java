package dev.portcullis.testing;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Leaves out of Payara Micro's PostgreSQL pass the test classes that WildFly's pass runs whole on PostgreSQL anyway, so
 * every test still runs once on each database and each server kind, and CI stays within its time budget
 * (docs/servers.md).
 *
 * <p>The list is failsafe's own selection for WildFly ({@code it.wildfly}: {@code Class} or {@code Class#m1+m2*},
 * comma-separated), handed over in {@code portcullis.test.postgres-covered-by-wildfly} only when the full-server
 * passes run. Only whole classes count: a class WildFly runs in part stays whole here, since a class may check
 * things across all its tests (the hostile-input sweeps count their requests). Tests WildFly's pass excludes
 * ({@code mp-openapi}) stay. Without the property nothing is left out, so a targeted run ({@code -Dit.test=…}) runs
 * what it names.
 */
public class CoveredOnPostgresElsewhere implements PostDiscoveryFilter {

    static final String PROPERTY = "portcullis.test.postgres-covered-by-wildfly";
    private static final TestTag NOT_ON_WILDFLY = TestTag.create("mp-openapi");

    private final Set<String> coveredClasses;

    public CoveredOnPostgresElsewhere() {
        this(System.getProperty("portcullis.test.database", "").equals("postgres")
                && ItEnvironment.fullServer() == null ? System.getProperty(PROPERTY, "") : "");
    }

    CoveredOnPostgresElsewhere(String wildflySelection) {
        coveredClasses = wholeClasses(wildflySelection);
    }

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (coveredClasses.isEmpty() || descriptor.getTags().contains(NOT_ON_WILDFLY)) {
            return FilterResult.included(null);
        }
        Optional<TestSource> source = descriptor.getSource();
        String className;
        if (source.isPresent() && source.get() instanceof MethodSource m) {
            className = m.getClassName();
        } else if (source.isPresent() && source.get() instanceof ClassSource c) {
            className = c.getClassName();
        } else {
            return FilterResult.included(null);
        }
        return coveredClasses.contains(className.substring(className.lastIndexOf('.') + 1))
                ? FilterResult.excluded("runs on PostgreSQL in WildFly's pass")
                : FilterResult.included(null);
    }

    /** The simple names of the classes a failsafe {@code test} selection names without a method filter. */
    static Set<String> wholeClasses(String selection) {
        return Arrays.stream(selection.split(",")).map(String::trim)
                .filter(e -> !e.isEmpty() && !e.contains("#"))
                .collect(Collectors.toUnmodifiableSet());
    }
}
