package dev.portcullis.directory;

/** No directory server answered in time (or at all): nothing about the user is known. */
public class DirectoryUnavailableException extends RuntimeException {

    public DirectoryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
