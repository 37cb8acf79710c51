package dev.portcullis.persistence;

import jakarta.persistence.TypedQuery;

/**
 * What the JPA repositories of the administered aggregates (clients, users, consents, signing keys) share: reads
 * that return objects outside the unit of work, so a caller cannot change a row by accident and no clone is built.
 */
public final class Jpa {

    /** EclipseLink's {@code QueryHints.READ_ONLY}. */
    public static final String READ_ONLY = "eclipselink.read-only";

    /** EclipseLink's {@code QueryHints.CACHE_USAGE}. */
    public static final String CACHE_USAGE = "eclipselink.cache-usage";

    /**
     * {@code CacheUsage.DoNotCheckCache}: with no shared cache and a fresh persistence context per request, a look into
     * the cache before the SELECT can never find the row, so the hot-path reads skip it.
     */
    public static final String DO_NOT_CHECK_CACHE = "DoNotCheckCache";

    private Jpa() {
    }

    /**
     * {@code query} with EclipseLink's read-only hint: results are not managed, changes to them are never saved. For
     * queries built per call; the hot-path named queries declare their hints, as setting one per call is costly.
     */
    public static <T> TypedQuery<T> readOnly(TypedQuery<T> query) {
        return query.setHint(READ_ONLY, "true");
    }
}
