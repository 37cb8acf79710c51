package dev.portcullis.app;

import dev.portcullis.account.UserAdminResource;
import dev.portcullis.admin.AdminAuthenticationFilter;
import dev.portcullis.app.WebProviders;
import dev.portcullis.audit.AuditAdminResource;
import dev.portcullis.client.ClientAdminResource;
import dev.portcullis.jose.SigningKeyAdminResource;
import dev.portcullis.mfa.FactorAdminResource;
import dev.portcullis.resource.DelegationFilter;
import dev.portcullis.retention.PurgeAdminResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The operator's admin API under {@code /admin}, guarded by {@link AdminAuthenticationFilter}. No admin endpoint is
 * delegable: {@link DelegationFilter} runs first and refuses a user's access token with 403.
 */
@ApplicationPath("admin")
@OpenAPIDefinition(info = @Info(title = "Portcullis admin API", version = "1",
        description = "Manage client applications, users and signing keys; read the audit trail; purge expired "
                + "rows. Every call needs Authorization: Bearer <admin token>."))
@SecurityScheme(securitySchemeName = "adminToken", type = SecuritySchemeType.HTTP, scheme = "bearer")
public class AdminApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return WebProviders.with(DelegationFilter.class, AdminAuthenticationFilter.class, ClientAdminResource.class,
                UserAdminResource.class, AuditAdminResource.class, SigningKeyAdminResource.class,
                PurgeAdminResource.class, FactorAdminResource.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return WebProviders.PROPERTIES;
    }
}
