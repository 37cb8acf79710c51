package dev.portcullis.bench;

/**
 * A response that did not meet the scenario's expectations (wrong status, missing field, wrong value). Counted as an
 * error by the runner, never ignored; {@link #kind()} groups errors in the report.
 */
public class FlowFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final String kind;

    public FlowFailure(String kind, Reply reply) {
        super(kind + (reply == null ? "" : " — " + reply.brief()), null, false, false);
        this.kind = kind;
    }

    public FlowFailure(String kind) {
        this(kind, null);
    }

    public String kind() {
        return kind;
    }
}
