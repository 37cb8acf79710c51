package dev.portcullis.backend;

import jakarta.annotation.security.DeclareRoles;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.auth.LoginConfig;

/**
 * A backend written the way MicroProfile JWT Auth's documentation shows, knowing nothing of Portcullis: bearer tokens
 * checked by the server's MP-JWT implementation against the JWKS, issuer and audience in its
 * META-INF/microprofile-config.properties, roles from the token's {@code groups} claim. The tests package it as a WAR
 * of its own ({@link BackendWars}) and deploy it next to Portcullis.
 */
@ApplicationPath("/")
@ApplicationScoped // a CDI bean: Payara looks for @LoginConfig on beans only, so without it Payara asks for BASIC
@LoginConfig(authMethod = "MP-JWT")
@DeclareRoles({PayrollBackend.ROLE, "auditors"})
public class PayrollBackend extends Application {

    /** The role the protected resource demands: a group an administrator gives a user in Portcullis. */
    public static final String ROLE = "payroll";
}
