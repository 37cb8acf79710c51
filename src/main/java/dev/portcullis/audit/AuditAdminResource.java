package dev.portcullis.audit;

import dev.portcullis.admin.Refusal;
import dev.portcullis.protocol.JsonSupport;
import dev.portcullis.protocol.Paging;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * {@code GET /admin/audit?since=&type=&after=&limit=}: the audit trail, oldest first. {@code since} is an ISO-8601
 * instant or epoch milliseconds; page on with {@code after=<next_after of the previous page>}.
 */
@Path("audit")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@SecurityRequirement(name = "adminToken")
public class AuditAdminResource {

    @Inject
    AuditEventRepository audit;

    @GET
    @Operation(summary = "Read the security audit trail, paged, optionally filtered by time and event type")
    public String list(@QueryParam("since") String since, @QueryParam("type") String type,
                       @QueryParam("after") String after, @QueryParam("limit") String limit) {
        long sinceMs = parseSince(since);
        long afterId = after == null || after.isEmpty() ? 0 : Paging.offset(after);
        int max = Paging.limit(limit, 1000);
        List<AuditEvent> events = audit.list(sinceMs, afterId,
                type == null || type.isEmpty() ? null : checkType(type), max);
        JsonArrayBuilder a = JsonSupport.JSON.createArrayBuilder();
        events.forEach(e -> a.add(describe(e)));
        JsonObjectBuilder out = JsonSupport.JSON.createObjectBuilder().add("events", a);
        if (events.size() == max) {
            out.add("next_after", events.get(events.size() - 1).id());
        }
        return out.build().toString();
    }

    private static long parseSince(String since) {
        if (since == null || since.isEmpty()) {
            return 0;
        }
        try {
            return since.chars().allMatch(Character::isDigit) && since.length() <= 15
                    ? Long.parseLong(since) : Instant.parse(since).toEpochMilli();
        } catch (DateTimeParseException | NumberFormatException e) {
            throw Refusal.invalid("since", "an ISO-8601 instant (2026-01-31T12:00:00Z) or epoch milliseconds");
        }
    }

    private static String checkType(String type) {
        try {
            return AuditEvent.Type.valueOf(type).name();
        } catch (IllegalArgumentException e) {
            throw Refusal.invalid("type", "one of " + Arrays.toString(AuditEvent.Type.values()));
        }
    }

    private static JsonObjectBuilder describe(AuditEvent e) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder()
                .add("id", e.id())
                .add("time", e.occurredAt().toString())
                .add("type", e.type())
                .add("outcome", e.outcome());
        if (e.clientId() != null) {
            b.add("client_id", e.clientId());
        }
        if (e.subject() != null) {
            b.add("subject", e.subject());
        }
        if (e.ip() != null) {
            b.add("ip", e.ip());
        }
        if (e.detail() != null) {
            b.add("detail", e.detail());
        }
        if (e.actor() != null) {
            b.add("actor", e.actor());
        }
        return b;
    }
}
