package dev.portcullis.retention;

import dev.portcullis.audit.Actor;
import dev.portcullis.protocol.ClientAddress;
import dev.portcullis.protocol.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code POST /admin/purge}: runs the cleanup of expired rows now, on this instance, and answers what it deleted
 * per table. The same run happens every 10 minutes on its own ({@link ExpiredRowsCleanup}); this is for after a
 * retention change, before a backup, or to see what the schedule would do.
 */
@Path("purge")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class PurgeAdminResource {

    @Inject
    ExpiredRowsCleanup cleanup;

    @Inject
    ClientAddress clientAddress;

    @Context
    HttpServletRequest request;

    @POST
    @Operation(summary = "Delete expired rows now",
            description = "Expired SSO sessions, stale sign-in counters; codes, access-token records and refresh "
                    + "tokens a day past expiry; grants with no token left; audit events past "
                    + "portcullis.audit.retention-days. Answers the number of rows deleted per table.")
    public String purge() {
        ExpiredRowsCleanup.Purged purged = cleanup.purgeNow(Actor.adminToken(clientAddress.of(request)));
        JsonObjectBuilder counts = JsonSupport.JSON.createObjectBuilder();
        purged.byName().forEach(counts::add);
        return JsonSupport.JSON.createObjectBuilder().add("purged", counts).add("total", purged.total()).build()
                .toString();
    }
}
