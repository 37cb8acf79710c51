package dev.portcullis.authorize;

import dev.portcullis.protocol.ProtocolParameters;
import java.time.Instant;

/**
 * A verified request object (RFC 9101): the authorization request's parameters, taken from the object alone, and
 * what its single use needs: its {@code jti} (null when it has none) and when it expires.
 */
public record RequestObject(ProtocolParameters parameters, String jti, Instant expiresAt) {
}
