package dev.portcullis.persistence;

import jakarta.persistence.CacheRetrieveMode;
import jakarta.persistence.CacheStoreMode;
import jakarta.persistence.TypedQuery;
import java.util.Map;

/**
 * What the JPA repositories of the administered aggregates (clients, users, consents, signing keys) share: reads
 * that return objects outside the unit of work, so a caller cannot change a row by accident and no clone is built,
 * and the bounds of the one cache, clients and users for the per-request reads.
 */
public final class Jpa {

    /** EclipseLink's {@code QueryHints.READ_ONLY}. */
    public static final String READ_ONLY = "eclipselink.read-only";

    /** EclipseLink's {@code QueryHints.CACHE_USAGE}. */
    public static final String CACHE_USAGE = "eclipselink.cache-usage";

    /** {@code CacheUsage.DoNotCheckCache}: the read goes to the database whatever the cache holds. */
    public static final String DO_NOT_CHECK_CACHE = "DoNotCheckCache";

    /** {@code CacheUsage.CheckCacheByPrimaryKey}: a primary-key read answered from the cache while its entry is young. */
    public static final String CHECK_CACHE_BY_PRIMARY_KEY = "CheckCacheByPrimaryKey";

    /** EclipseLink's {@code QueryHints.REFRESH}: the row read replaces the cache's copy. */
    public static final String REFRESH = "eclipselink.refresh";

    /**
     * How long (milliseconds) a client or user read stays in the instance's cache for the requests that read them on
     * every call ({@code ClientRepository.findCached}, {@code UserRepository.findCached}). Changes made on this
     * instance replace the entry at commit; another instance's change is seen here within this time. Every other read
     * of these tables goes to the database and refreshes the entry. Token state (codes, grants, revocation) is never
     * cached, so a revocation takes effect everywhere at once.
     */
    public static final int CACHED_READ_MILLIS = 2000;

    /** JPA's find properties for a read that must see the row as it is now and refresh the cache with it. */
    public static final Map<String, Object> FRESH = Map.of(
            "jakarta.persistence.cache.retrieveMode", CacheRetrieveMode.BYPASS,
            "jakarta.persistence.cache.storeMode", CacheStoreMode.REFRESH);

    private Jpa() {
    }

    /**
     * {@code query} with EclipseLink's read-only hint, reading the rows as they are now: results are not managed, and
     * changes to them are never saved (nor may they be made: a read-only result is the cache's own copy). For queries
     * built per call; the named queries declare their hints, as setting one per call is costly.
     */
    public static <T> TypedQuery<T> readOnly(TypedQuery<T> query) {
        return query.setHint(READ_ONLY, "true").setHint(CACHE_USAGE, DO_NOT_CHECK_CACHE).setHint(REFRESH, "true");
    }
}
