package dev.portcullis.directory;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.BindRequest;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.FailoverServerSet;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPConnectionPool;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.PostConnectProcessor;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.StartTLSPostConnectProcessor;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import dev.portcullis.config.ConfigurationException;
import dev.portcullis.config.DirectorySettings;
import dev.portcullis.metrics.Metrics;
import dev.portcullis.protocol.LogText;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.GeneralSecurityException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.SocketFactory;

/**
 * The LDAP / Active Directory user store ({@code portcullis.ldap.*}). A sign-in finds the entry with the service
 * account (the typed name escaped into {@code user-filter}), then verifies the password by binding as that entry on
 * a pooled connection, which is re-bound as the service account afterwards; directory passwords are never read or
 * stored. Connections go through a failover set over the configured URLs, with the server certificate checked
 * against {@code ca-file} and the host name (LDAPS or StartTLS), and connect and response time-outs.
 *
 * <p>Any failure to reach the directory is a {@link DirectoryUnavailableException}: the caller cannot tell a user
 * who does not exist from a directory that did not answer, and must not act as if it could.
 */
@ApplicationScoped
public class Directory {

    private static final Logger LOG = Logger.getLogger(Directory.class.getName());

    /** userAccountControl flags (MS-ADTS 2.2.16); the lock and expiry bits are set in the computed attribute. */
    static final long ACCOUNTDISABLE = 0x2;
    static final long LOCKOUT = 0x10;
    static final long PASSWORD_EXPIRED = 0x800000;
    static final String USER_ACCOUNT_CONTROL = "userAccountControl";
    static final String USER_ACCOUNT_CONTROL_COMPUTED = "msDS-User-Account-Control-Computed";
    static final String MEMBER_OF = "memberOf";
    static final int MAX_USERNAME = 256;
    static final int MAX_PASSWORD = 1024;
    /** Bounds the group walk of a user in thousands of groups; more are logged and left out. */
    static final int MAX_GROUPS = 500;
    /** The longest subject that fits the users table's key. */
    static final int MAX_SUBJECT = 64;

    /** What a sign-in against the directory found; only AUTHENTICATED carries the entry. */
    public enum Outcome { AUTHENTICATED, INVALID, DISABLED, LOCKED, PASSWORD_EXPIRED }

    public record Authentication(Outcome outcome, Optional<DirectoryEntry> entry) {

        static Authentication refused(Outcome outcome) {
            return new Authentication(outcome, Optional.empty());
        }
    }

    @Inject
    Optional<DirectorySettings> directorySettings;

    @Inject
    Metrics metrics;

    private DirectorySettings settings;
    private LDAPConnectionPool pool;

    /** For CDI. */
    protected Directory() {
    }

    /** A directory client outside the container (tests). */
    public Directory(DirectorySettings settings) {
        open(settings);
    }

    @PostConstruct
    void open() {
        directorySettings.ifPresent(this::open);
    }

    private void open(DirectorySettings s) {
        settings = s;
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setConnectTimeoutMillis((int) s.connectTimeout().toMillis());
        options.setResponseTimeoutMillis(s.responseTimeout().toMillis());
        options.setSSLSocketVerifier(new HostNameSSLSocketVerifier(true));
        SocketFactory sockets = SocketFactory.getDefault();
        PostConnectProcessor startTls = null;
        if (s.usesTls()) {
            try {
                SSLUtil ssl = new SSLUtil(new PEMFileTrustManager(s.caFile().orElseThrow().toFile()));
                if (s.startTls()) {
                    startTls = new StartTLSPostConnectProcessor(ssl.createSSLSocketFactory());
                } else {
                    sockets = ssl.createSSLSocketFactory();
                }
            } catch (GeneralSecurityException e) {
                throw new ConfigurationException("portcullis.ldap.ca-file", "cannot be used as a trust store: "
                        + e.getMessage());
            }
        }
        List<LDAPURL> urls = s.urls();
        String[] hosts = urls.stream().map(LDAPURL::getHost).toArray(String[]::new);
        int[] ports = urls.stream().mapToInt(LDAPURL::getPort).toArray();
        FailoverServerSet servers = new FailoverServerSet(hosts, ports, sockets, options);
        BindRequest serviceAccount = s.bindDn().map(dn -> (BindRequest) new SimpleBindRequest(dn,
                s.bindPassword().orElseThrow())).orElse(null);
        try {
            // not failing when no server answers: the directory may come up after Portcullis
            pool = new LDAPConnectionPool(servers, serviceAccount, 1, s.poolSize(), startTls, false);
        } catch (LDAPException e) {
            throw new IllegalStateException("LDAP connection pool: " + e.getMessage(), e);
        }
        pool.setConnectionPoolName("portcullis-ldap");
        pool.setRetryFailedOperationsDueToInvalidConnections(true);
        pool.setMaxWaitTimeMillis(s.responseTimeout().toMillis());
    }

    @PreDestroy
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }

    /** Whether {@code portcullis.ldap.url} is set. */
    public boolean configured() {
        return settings != null;
    }

    /** Whether locally created users may sign in ({@code portcullis.ldap.local-users}); always without a directory. */
    public boolean localUsersAllowed() {
        return settings == null || settings.localUsers();
    }

    /** {@code portcullis.ldap.recheck-interval}, in seconds. */
    public long recheckIntervalSeconds() {
        return settings.recheckInterval().toSeconds();
    }

    /**
     * Finds the entry of {@code username} and binds as it with {@code password}. Nothing is bound when the name
     * matches no entry or more than one, or the password is empty (an empty simple bind would be anonymous).
     *
     * @throws DirectoryUnavailableException when no directory server answered
     */
    public Authentication authenticate(String username, String password) {
        if (username == null || username.isEmpty() || username.length() > MAX_USERNAME || password == null
                || password.isEmpty() || password.length() > MAX_PASSWORD) {
            return Authentication.refused(Outcome.INVALID);
        }
        Optional<SearchResultEntry> found = findByName(username);
        if (found.isEmpty()) {
            return Authentication.refused(Outcome.INVALID);
        }
        SearchResultEntry entry = found.get();
        long started = System.nanoTime();
        try {
            pool.bindAndRevertAuthentication(new SimpleBindRequest(entry.getDN(), password));
            record("bind", "success", started);
        } catch (LDAPException e) {
            if (isOutage(e.getResultCode())) {
                record("bind", "unavailable", started);
                throw unavailable("bind", e);
            }
            record("bind", "refused", started);
            return Authentication.refused(activeDirectoryRefusal(e.getDiagnosticMessage()));
        }
        Outcome state = accountState(entry);
        if (state != Outcome.AUTHENTICATED) {
            return Authentication.refused(state);
        }
        return toEntry(entry).map(e -> new Authentication(Outcome.AUTHENTICATED, Optional.of(e)))
                .orElseGet(() -> Authentication.refused(Outcome.INVALID));
    }

    /**
     * The username (lower-case, as the user's row has it) of the one entry that the typed {@code username} finds, by
     * any spelling {@code user-filter} accepts (account name, principal name, any case); nothing is bound. Empty when
     * it finds no entry, several, or one without a username.
     *
     * @throws DirectoryUnavailableException when no directory server answered
     */
    public Optional<String> accountName(String username) {
        if (username == null || username.isEmpty() || username.length() > MAX_USERNAME) {
            return Optional.empty();
        }
        return findByName(username).map(e -> e.getAttributeValue(settings.attributes().username()))
                .map(n -> n.toLowerCase(Locale.ROOT));
    }

    /**
     * The entry of a Kerberos client principal, found with {@code principalFilter} ({@code {0}} the whole principal,
     * {@code {1}} the name before {@code @}, both escaped) under the user base, with its account state: nothing is
     * bound, the KDC has already verified the user. INVALID when it finds no entry, several, or an unusable one.
     *
     * @throws DirectoryUnavailableException when no directory server answered
     */
    public Authentication findPrincipal(String principalFilter, String principal, String account) {
        if (principal.length() > MAX_USERNAME) {
            return Authentication.refused(Outcome.INVALID);
        }
        Optional<SearchResultEntry> found;
        try {
            found = findOne(LdapValues.principalFilter(principalFilter, principal, account));
        } catch (LDAPException e) {
            throw unavailable("principal search", e);
        }
        if (found.isEmpty()) {
            return Authentication.refused(Outcome.INVALID);
        }
        Outcome state = accountState(found.get());
        if (state != Outcome.AUTHENTICATED) {
            return Authentication.refused(state);
        }
        return toEntry(found.get()).map(e -> new Authentication(Outcome.AUTHENTICATED, Optional.of(e)))
                .orElseGet(() -> Authentication.refused(Outcome.INVALID));
    }

    /** The one entry {@code user-filter} finds for a typed username. */
    private Optional<SearchResultEntry> findByName(String username) {
        try {
            return findOne(LdapValues.filter(settings.userFilter(), username, null));
        } catch (LDAPException e) {
            throw unavailable("user search", e);
        }
    }

    /**
     * The entry with this subject, read again with its claims and groups, if it still exists (wherever it moved)
     * and is not disabled; empty otherwise.
     *
     * @throws DirectoryUnavailableException when no directory server answered
     */
    public Optional<DirectoryEntry> findEnabled(String subject) {
        String attribute = settings.attributes().subject();
        Filter bySubject;
        try {
            bySubject = isGuid(attribute) ? Filter.createEqualityFilter(attribute, LdapValues.guidBytes(subject))
                    : Filter.createEqualityFilter(attribute, subject);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        Optional<SearchResultEntry> found;
        try {
            found = findOne(bySubject);
        } catch (LDAPException e) {
            throw unavailable("re-check", e);
        }
        return found.filter(e -> (flags(e) & ACCOUNTDISABLE) == 0).flatMap(this::toEntry)
                .filter(e -> e.subject().equals(subject));
    }

    /**
     * Reads the root DSE, as readiness does.
     *
     * @throws DirectoryUnavailableException when no directory server answered
     */
    public void ping() {
        long started = System.nanoTime();
        try {
            if (pool.getRootDSE() == null) {
                record("probe", "unavailable", started);
                throw new DirectoryUnavailableException("the directory returned no root DSE", null);
            }
            record("probe", "success", started);
        } catch (LDAPException e) {
            record("probe", "unavailable", started);
            throw unavailable("root DSE", e);
        }
    }

    /** Counts and times one operation; a directory built outside the container (tests) records nothing. */
    private void record(String operation, String outcome, long started) {
        if (metrics != null) {
            metrics.directoryOperation(operation, outcome, started);
        }
    }

    private Optional<SearchResultEntry> findOne(Filter filter) throws LDAPException {
        DirectorySettings.Attributes a = settings.attributes();
        List<String> attributes = new ArrayList<>(List.of(a.subject(), a.username(), a.name(), a.email(),
                USER_ACCOUNT_CONTROL, USER_ACCOUNT_CONTROL_COMPUTED));
        a.claims().values().forEach(attributes::addAll);
        if (settings.groupsFromMemberOf()) {
            attributes.add(MEMBER_OF);
        }
        List<SearchResultEntry> entries = search(settings.userBaseDn(), filter, 2,
                attributes.stream().distinct().toArray(String[]::new));
        if (entries.size() > 1) {
            LOG.warning(() -> "LDAP: " + LogText.escape(filter.toString()) + " matches more than one entry under "
                    + settings.userBaseDn() + "; nobody signs in with it");
            return Optional.empty();
        }
        return entries.stream().findFirst();
    }

    /** A subtree search; past {@code limit} entries, the first {@code limit} (the server's choice). */
    private List<SearchResultEntry> search(String base, Filter filter, int limit, String... attributes)
            throws LDAPException {
        SearchRequest request = new SearchRequest(base, SearchScope.SUB, filter, attributes);
        request.setSizeLimit(limit);
        request.setTimeLimitSeconds((int) settings.responseTimeout().toSeconds());
        long started = System.nanoTime();
        try {
            List<SearchResultEntry> entries = pool.search(request).getSearchEntries();
            record("search", "success", started);
            return entries;
        } catch (LDAPSearchException e) {
            if (e.getResultCode() != ResultCode.SIZE_LIMIT_EXCEEDED) {
                record("search", isOutage(e.getResultCode()) ? "unavailable" : "refused", started);
                throw e;
            }
            record("search", "success", started);
            return e.getSearchEntries();
        }
    }

    private Optional<DirectoryEntry> toEntry(SearchResultEntry e) {
        DirectorySettings.Attributes a = settings.attributes();
        Optional<String> subject = subject(e, a.subject());
        if (subject.isEmpty() || subject.get().length() > MAX_SUBJECT) {
            LOG.severe(() -> "LDAP: entry " + LogText.escape(e.getDN()) + " has no usable " + a.subject()
                    + " (portcullis.ldap.attribute.subject); it cannot sign in");
            return Optional.empty();
        }
        String username = e.getAttributeValue(a.username());
        if (username == null) {
            LOG.severe(() -> "LDAP: entry " + LogText.escape(e.getDN()) + " has no " + a.username()
                    + " (portcullis.ldap.attribute.username); it cannot sign in");
            return Optional.empty();
        }
        Groups groups;
        try {
            groups = groups(e, username);
        } catch (LDAPException ex) {
            throw unavailable("group search", ex);
        }
        Map<String, String> claims = new LinkedHashMap<>();
        a.claims().forEach((claim, names) -> names.stream().map(e::getAttributeValue).filter(Objects::nonNull)
                .findFirst().ifPresent(value -> claims.put(claim, value)));
        return Optional.of(new DirectoryEntry(subject.get(), e.getDN(), username.toLowerCase(Locale.ROOT),
                e.getAttributeValue(a.name()), e.getAttributeValue(a.email()), claims, groups.names(),
                groups.administrator()));
    }

    private static Optional<String> subject(SearchResultEntry e, String attribute) {
        if (isGuid(attribute)) {
            byte[] value = e.getAttributeValueBytes(attribute);
            return value == null || value.length != 16 ? Optional.empty() : Optional.of(LdapValues.guid(value));
        }
        return Optional.ofNullable(e.getAttributeValue(attribute)).map(String::trim).filter(s -> !s.isEmpty());
    }

    private static boolean isGuid(String attribute) {
        return attribute.equalsIgnoreCase("objectGUID");
    }

    /**
     * The names of the user's groups, sorted: from {@code memberOf}, following each group's own {@code memberOf}
     * (nested groups), or from one search under {@code group-base-dn}; none when neither is configured.
     */
    private Groups groups(SearchResultEntry user, String username) throws LDAPException {
        String nameAttribute = settings.groupNameAttribute();
        Set<String> names = new TreeSet<>();
        boolean administrator = false;
        if (settings.groupsFromMemberOf()) {
            Deque<String> todo = new ArrayDeque<>(valuesOf(user.getAttribute(MEMBER_OF)));
            Set<DN> seen = new HashSet<>();
            while (!todo.isEmpty() && seen.size() < MAX_GROUPS) {
                String dn = todo.poll();
                if (!seen.add(new DN(dn))) {
                    continue;
                }
                SearchResultEntry group = pool.getEntry(dn, nameAttribute, MEMBER_OF);
                if (group != null) {
                    String name = groupName(group, nameAttribute);
                    names.add(name);
                    administrator |= settings.isAdminGroup(group.getDN(), name);
                    todo.addAll(valuesOf(group.getAttribute(MEMBER_OF)));
                }
            }
        } else if (settings.groupBaseDn().isPresent()) {
            for (SearchResultEntry g : search(settings.groupBaseDn().get(),
                    LdapValues.filter(settings.groupFilter(), username, user.getDN()), MAX_GROUPS, nameAttribute)) {
                String name = groupName(g, nameAttribute);
                names.add(name);
                administrator |= settings.isAdminGroup(g.getDN(), name);
            }
        }
        if (names.size() >= MAX_GROUPS) {
            LOG.warning(() -> "LDAP: " + LogText.escape(user.getDN()) + " is in more than " + MAX_GROUPS
                    + " groups; the groups claim holds the first " + MAX_GROUPS);
        }
        return new Groups(List.copyOf(names), administrator);
    }

    /** The names of a user's groups, and whether one of them is the admin group. */
    private record Groups(List<String> names, boolean administrator) {
    }

    private static List<String> valuesOf(Attribute a) {
        return a == null ? List.of() : List.of(a.getValues());
    }

    private static String groupName(SearchResultEntry group, String nameAttribute) {
        String name = group.getAttributeValue(nameAttribute);
        if (name != null) {
            return name;
        }
        try {
            return new DN(group.getDN()).getRDN().getAttributeValues()[0];
        } catch (LDAPException e) {
            return group.getDN();
        }
    }

    /** Active Directory's account state (userAccountControl and its computed form); nothing on other servers. */
    static Outcome accountState(SearchResultEntry e) {
        long flags = flags(e);
        if ((flags & ACCOUNTDISABLE) != 0) {
            return Outcome.DISABLED;
        }
        if ((flags & LOCKOUT) != 0) {
            return Outcome.LOCKED;
        }
        if ((flags & PASSWORD_EXPIRED) != 0) {
            return Outcome.PASSWORD_EXPIRED;
        }
        return Outcome.AUTHENTICATED;
    }

    private static long flags(SearchResultEntry e) {
        return number(e.getAttributeValue(USER_ACCOUNT_CONTROL))
                | number(e.getAttributeValue(USER_ACCOUNT_CONTROL_COMPUTED));
    }

    private static long number(String v) {
        try {
            return v == null ? 0 : Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Active Directory tells why a bind failed in the diagnostic text ("... data 533, ..."), only when it is not
     * a wrong password: 533 disabled, 701 account expired, 775 locked, 532 password expired, 773 must change.
     */
    static Outcome activeDirectoryRefusal(String diagnostic) {
        if (diagnostic == null) {
            return Outcome.INVALID;
        }
        if (diagnostic.contains("data 533") || diagnostic.contains("data 701")) {
            return Outcome.DISABLED;
        }
        if (diagnostic.contains("data 775")) {
            return Outcome.LOCKED;
        }
        if (diagnostic.contains("data 532") || diagnostic.contains("data 773")) {
            return Outcome.PASSWORD_EXPIRED;
        }
        return Outcome.INVALID;
    }

    static boolean isOutage(ResultCode code) {
        return !ResultCode.isConnectionUsable(code) || code == ResultCode.UNAVAILABLE || code == ResultCode.BUSY
                || code == ResultCode.TIMEOUT || code == ResultCode.CONNECT_ERROR || code == ResultCode.SERVER_DOWN;
    }

    private static DirectoryUnavailableException unavailable(String step, LDAPException e) {
        LOG.log(Level.WARNING, "LDAP " + step + " failed: " + e.getResultCode() + " "
                + LogText.escape(e.getDiagnosticMessage() == null ? e.getMessage() : e.getDiagnosticMessage()));
        return new DirectoryUnavailableException("The directory did not answer (" + step + ")", e);
    }
}
