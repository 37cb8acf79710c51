package dev.portcullis.mfa;

import dev.portcullis.account.User;
import dev.portcullis.account.UserLookupService;
import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.Username;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** {@code /admin/users/{username}/factors}: an administrator resets a user's second factors (a lost phone or key). */
@Path("users/{username}/factors")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class FactorAdminResource {

    @Inject
    UserLookupService users;

    @Inject
    SecondFactorService factors;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @DELETE
    @Operation(summary = "Remove a user's authenticator app, recovery codes and passkeys",
            description = "Every SSO session of the user ends; they sign in with the password alone next time, and "
                    + "where a second factor is required, they enrol a new one at that sign-in.")
    public Response reset(@PathParam("username") String username) {
        Optional<User> user = username.length() > Username.MAX_LENGTH ? Optional.empty()
                : users.findByUsername(username);
        if (user.isEmpty()) {
            throw Refusal.notFound(Refusal.Thing.USER);
        }
        factors.reset(user.get(), Actor.adminToken(clientAddress.of(request)));
        return Response.noContent().build();
    }
}
