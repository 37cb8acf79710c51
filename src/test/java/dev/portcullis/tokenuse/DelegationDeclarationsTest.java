package dev.portcullis.tokenuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.portcullis.admin.AdminAuthenticationFilter;
import dev.portcullis.app.AdminApplication;
import dev.portcullis.app.ApiApplication;
import dev.portcullis.client.Scopes;
import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Delegability is declared, not assumed: every /api endpoint says whether a user's token may call it and with which
 * scopes, no admin endpoint is delegable, and the delegation filter runs before the admin token check.
 */
class DelegationDeclarationsTest {

    record ResourceMethod(Class<?> resourceClass, Method method) {
        @Override
        public String toString() {
            return resourceClass.getSimpleName() + "." + method.getName();
        }
    }

    static List<ResourceMethod> resourceMethods(Application app) {
        List<ResourceMethod> out = new ArrayList<>();
        for (Class<?> c : app.getClasses()) {
            if (!c.isAnnotationPresent(Path.class)) {
                continue;
            }
            for (Method m : c.getMethods()) {
                boolean http = Arrays.stream(m.getAnnotations())
                        .anyMatch(a -> a.annotationType().isAnnotationPresent(HttpMethod.class));
                if (http || m.isAnnotationPresent(Path.class)) {
                    out.add(new ResourceMethod(c, m));
                }
            }
        }
        return out;
    }

    @Test
    void everyApiEndpointDeclaresItsDelegability() {
        List<ResourceMethod> methods = resourceMethods(new ApiApplication());
        assertTrue(methods.size() >= 3, methods::toString);
        for (ResourceMethod rm : methods) {
            boolean delegable = rm.method().isAnnotationPresent(Delegable.class);
            boolean not = rm.method().isAnnotationPresent(NotDelegable.class)
                    || rm.resourceClass().isAnnotationPresent(NotDelegable.class);
            assertTrue(delegable ^ not, () -> rm + " must declare exactly one of @Delegable and @NotDelegable");
            if (delegable) {
                String[] scopes = rm.method().getAnnotation(Delegable.class).scopes();
                assertTrue(scopes.length > 0, () -> rm + ": @Delegable needs at least one scope");
                for (String s : scopes) {
                    assertTrue(Scopes.isKnown(s), () -> rm + ": unknown scope " + s);
                }
            }
        }
    }

    @Test
    void noAdminEndpointIsDelegable() {
        List<ResourceMethod> methods = resourceMethods(new AdminApplication());
        assertTrue(methods.size() >= 10, methods::toString);
        for (ResourceMethod rm : methods) {
            assertTrue(DelegationFilter.delegable(rm.method(), rm.resourceClass()).isEmpty(),
                    () -> rm + " is an admin endpoint: it must not be @Delegable");
        }
    }

    @Test
    void anUndeclaredOrContradictoryMethodIsNotDelegable() throws Exception {
        assertTrue(DelegationFilter.delegable(Samples.class.getMethod("undeclared"), Samples.class).isEmpty());
        assertTrue(DelegationFilter.delegable(Samples.class.getMethod("both"), Samples.class).isEmpty());
        assertFalse(DelegationFilter.delegable(Samples.class.getMethod("delegable"), Samples.class).isEmpty());
        assertTrue(DelegationFilter.delegable(Samples.class.getMethod("delegable"), Closed.class).isEmpty(),
                "a @NotDelegable class wins over its methods");
    }

    @Test
    void theDelegationFilterRunsBeforeTheAdminTokenCheck() {
        int delegation = DelegationFilter.class.getAnnotation(Priority.class).value();
        int admin = AdminAuthenticationFilter.class.getAnnotation(Priority.class).value();
        assertTrue(delegation < admin, "lower priority value runs first");
        assertTrue(new AdminApplication().getClasses().contains(DelegationFilter.class));
        assertTrue(new ApiApplication().getClasses().contains(DelegationFilter.class));
        assertEquals(1, new ApiApplication().getClasses().stream()
                .filter(c -> jakarta.ws.rs.container.ContainerRequestFilter.class.isAssignableFrom(c)).count(),
                "one filter decides delegation");
    }

    public static class Samples {
        public void undeclared() {
        }

        @Delegable(scopes = Scopes.READ_USER)
        @NotDelegable
        public void both() {
        }

        @Delegable(scopes = Scopes.READ_USER)
        public void delegable() {
        }
    }

    @NotDelegable
    public static class Closed extends Samples {
    }
}
