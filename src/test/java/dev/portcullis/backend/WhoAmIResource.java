package dev.portcullis.backend;

import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** {@code GET /whoami}: for callers in role {@value PayrollBackend#ROLE}, who they are and which roles they hold. */
@Path("whoami")
@RequestScoped
public class WhoAmIResource {

    @GET
    @RolesAllowed(PayrollBackend.ROLE)
    @Produces(MediaType.TEXT_PLAIN)
    public String whoAmI(@Context SecurityContext caller) {
        return "principal=" + caller.getUserPrincipal().getName() + " payroll=" + caller.isUserInRole(PayrollBackend.ROLE)
                + " auditors=" + caller.isUserInRole("auditors");
    }
}
