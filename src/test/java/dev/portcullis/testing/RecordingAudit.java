package dev.portcullis.testing;

import dev.portcullis.audit.Actor;
import dev.portcullis.audit.AuditEvent;
import dev.portcullis.audit.AuditLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An audit trail that keeps each success and failure as "TYPE subject detail", for unit tests to read. */
public final class RecordingAudit extends AuditLog {

    public final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void success(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        lines.add(type + " " + subject + " " + detail);
    }

    @Override
    public void change(AuditEvent.Type type, Actor actor, String clientId, String subject, String detail) {
        lines.add(type + " " + subject + " " + detail);
    }

    @Override
    public void failure(AuditEvent.Type type, String clientId, String subject, String ip, String detail) {
        lines.add(type + " " + subject + " " + detail);
    }
}
