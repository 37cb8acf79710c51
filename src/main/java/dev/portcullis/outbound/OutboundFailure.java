package dev.portcullis.outbound;

/**
 * Why an outbound request reached no usable answer. The message names the URL, the address, the time-out or what was
 * wrong with the answer: it is for the audit trail and the operator, never for the caller whose request caused the
 * fetch (it would tell them which hosts and ports answer inside the network).
 */
public final class OutboundFailure extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong, as a caller may tell it apart. */
    public enum Kind {
        /** The URL or an address it resolves to is not one Portcullis may reach ({@link OutboundAddressPolicy}). */
        REFUSED,
        /** No address, no connection, or the connection ended without a complete answer. */
        UNREACHABLE,
        /** The time-out of the request passed. */
        TIMED_OUT,
        /** The answer's body was larger than the request allows. */
        TOO_LARGE,
        /** The answer was not HTTP/1.x as this client reads it. */
        MALFORMED
    }

    private final Kind kind;

    OutboundFailure(Kind kind, String detail) {
        super(detail, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
