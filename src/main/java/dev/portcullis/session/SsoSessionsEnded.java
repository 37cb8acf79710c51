package dev.portcullis.session;

import java.util.List;

/**
 * SSO sessions ended (every way: logout, administrator, account page, account changes), fired by {@link SsoSessionRepository}
 * in the transaction that deletes them, so what was bound to them ends in it too: the token families signed in by
 * them ({@code token.TokenGrantRepository}). {@code sids} holds the ended sessions' sids (none for a session without one).
 */
public record SsoSessionsEnded(List<String> sids) {
}
