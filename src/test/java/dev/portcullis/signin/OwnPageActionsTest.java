package dev.portcullis.signin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.inject.Named;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every action button of the account page and the console runs a bean method that asks
 * {@link SignedInUser#authorizedActor} (itself or through a helper of its own package), so an action is refused where
 * it runs even if a request got past {@link OwnPagesGate}. A new button whose method forgets it fails here.
 */
class OwnPageActionsTest {

    private static final Pattern ACTION = Pattern.compile(
            "<h:commandButton[^>]*?\\baction=\"#\\{(\\w+)\\.(\\w+)}\"", Pattern.DOTALL);

    @Test
    void everyActionOfTheOwnPagesAsksForAnAuthorizedActor() throws IOException {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.portcullis");
        Map<String, JavaClass> beans = classes.stream().filter(c -> c.isAnnotatedWith(Named.class))
                .collect(Collectors.toMap(c -> c.getAnnotationOfType(Named.class).value(), Function.identity()));
        int actions = 0;
        for (String area : List.of("src/main/webapp/account", "src/main/webapp/admin/console")) {
            try (Stream<Path> pages = Files.list(Path.of(area))) {
                for (Path page : pages.filter(p -> p.toString().endsWith(".xhtml")).toList()) {
                    Matcher m = ACTION.matcher(Files.readString(page));
                    while (m.find()) {
                        JavaClass bean = beans.get(m.group(1));
                        assertTrue(bean != null, page + ": no bean named " + m.group(1));
                        String method = m.group(2);
                        assertTrue(asksForActor(bean, method), page + ": " + bean.getSimpleName() + "." + method
                                + " changes things without SignedInUser.authorizedActor()");
                        actions++;
                    }
                }
            }
        }
        assertTrue(actions >= 20, "found " + actions + " actions");
    }

    @Test
    void aMethodThatAsksNothingIsFound() {
        JavaClasses classes = new ClassFileImporter().importClasses(OwnPageActionsTest.class);
        assertFalse(asksForActor(classes.get(OwnPageActionsTest.class), "aMethodThatAsksNothingIsFound"));
    }

    /** Whether {@code method} of {@code bean} calls authorizedActor, following calls into the bean's own package. */
    private static boolean asksForActor(JavaClass bean, String method) {
        Deque<JavaCodeUnit> todo = new ArrayDeque<>();
        bean.getMethods().stream().filter(m -> m.getName().equals(method)).forEach(todo::add);
        Set<JavaCodeUnit> seen = new HashSet<>(todo);
        while (!todo.isEmpty()) {
            for (JavaMethodCall call : todo.pop().getMethodCallsFromSelf()) {
                if (call.getTargetOwner().isEquivalentTo(SignedInUser.class)
                        && call.getName().equals("authorizedActor")) {
                    return true;
                }
                if (call.getTargetOwner().getPackageName().equals(bean.getPackageName())) {
                    call.getTarget().resolveMember().filter(seen::add).ifPresent(todo::add);
                }
            }
        }
        return false;
    }
}
