package dev.portcullis.console;

import dev.portcullis.admin.Refusal;
import dev.portcullis.audit.Actor;
import dev.portcullis.signin.SignedInUser;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Optional;

/**
 * A console form post, the same on every page: who acts is decided first (the administrator who posted it with this
 * browser's CSRF token; anyone else gets 403 and nothing is done), then the change is made as that administrator,
 * and a {@link Refusal} answers with its status and its message in the administrator's language. A deletion asks
 * first: only the post of the confirmation step deletes. One per request, as a request posts one form; the pages show
 * its {@link #getErrorText error} and {@link #isConfirmingDelete confirmation step} as {@code #{consoleForm}}.
 */
@Named("consoleForm")
@RequestScoped
public class ConsoleForm {

    /** A change made as the acting administrator; it may throw a {@link Refusal} before changing anything. */
    @FunctionalInterface
    public interface Change {
        void make(Actor actor);
    }

    @Inject
    SignedInUser signedIn;

    private String errorText;
    private boolean confirming;

    /** Makes {@code change} as the administrator who posted the form; false when nothing was made. */
    public boolean submit(Change change) {
        Optional<Actor> actor = ConsolePages.actor(signedIn);
        if (actor.isEmpty()) {
            errorText = signedIn.getMsg().get("page.csrf");
            return false;
        }
        try {
            change.make(actor.get());
            return true;
        } catch (Refusal e) {
            errorText = ConsolePages.refusal(signedIn, e);
            return false;
        }
    }

    /**
     * Confirm-then-delete: the first post (the delete button) only shows the confirmation step; the post of that
     * step ({@code confirmed=yes}) runs {@code delete}. Who acts is decided before either.
     */
    public void delete(Change delete) {
        submit(actor -> {
            if (confirmed()) {
                delete.make(actor);
            } else {
                confirming = true;
            }
        });
    }

    /** True on the confirmation step, and on its post, so that Faces finds the confirming button it rendered. */
    public boolean isConfirmingDelete() {
        return confirming || confirmed();
    }

    private boolean confirmed() {
        return "yes".equals(signedIn.parameter("confirmed", 3));
    }

    /** Why the post did nothing, in the administrator's language; null when it did what it was asked. */
    public String getErrorText() {
        return errorText;
    }
}
