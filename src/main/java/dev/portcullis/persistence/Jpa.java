package dev.portcullis.persistence;

import jakarta.persistence.TypedQuery;

/**
 * What the JPA repositories of the administered aggregates (clients, users, consents, signing keys) share: reads
 * that return objects outside the unit of work, so a caller cannot change a row by accident and no clone is built.
 */
public final class Jpa {

    /** EclipseLink's {@code QueryHints.READ_ONLY}. */
    public static final String READ_ONLY = "eclipselink.read-only";

    private Jpa() {
    }

    /** {@code query} with EclipseLink's read-only hint: results are not managed, changes to them are never saved. */
    public static <T> TypedQuery<T> readOnly(TypedQuery<T> query) {
        return query.setHint(READ_ONLY, "true");
    }
}
