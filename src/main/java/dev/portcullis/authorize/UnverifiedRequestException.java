package dev.portcullis.authorize;

/**
 * Step 1 of validation failed: the client is unknown or the redirect URI is not one of its registered URIs, so there
 * is nowhere safe to send the browser. The user sees an HTML error page (HTTP 400) with the message under
 * {@link #messageKey()} in the bundle; {@link #getMessage()} is a plain English detail for logs and tests.
 */
public class UnverifiedRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String messageKey;

    public UnverifiedRequestException(String messageKey, String detail) {
        super(detail, null, false, false);
        this.messageKey = messageKey;
    }

    public String messageKey() {
        return messageKey;
    }
}
