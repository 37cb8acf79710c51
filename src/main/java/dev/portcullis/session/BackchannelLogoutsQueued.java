package dev.portcullis.session;

/**
 * Back-channel logouts were queued in the current transaction ({@link BackchannelLogout}); the sender observes it once
 * that transaction has committed, so it sends them at once rather than at its next poll.
 */
public record BackchannelLogoutsQueued(int count) {
}
