package dev.portcullis.declarative;

/** A configuration document that cannot be applied: the JSON path of the value at fault and why. */
public final class DocumentError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final String why;

    public DocumentError(String path, String why) {
        super(path + ": " + why);
        this.path = path;
        this.why = why;
    }

    public String path() {
        return path;
    }

    public String why() {
        return why;
    }
}
