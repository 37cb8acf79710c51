package dev.portcullis.admin;

/** What a JSON merge patch (RFC 7396) may do to a field. */
public enum PatchRule {
    /** Not in a patch: the server sets it, or it is fixed at registration. */
    NONE,
    /** A patch may set another value; null is refused ("cannot be removed"). */
    CHANGE,
    /** A patch may set another value or remove it with null. */
    CHANGE_OR_REMOVE
}
