package dev.portcullis.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The {@code portcullis.ldap.*} settings: where the directory is, how to reach it safely, and which attributes hold
 * what. Present only when {@code portcullis.ldap.url} is set. {@code userFilter} holds {@code {0}} (the typed
 * username, escaped when used); {@code groupFilter} may hold {@code {dn}} (the user's DN) and {@code {0}}.
 */
public record DirectorySettings(List<LDAPURL> urls, boolean startTls, Optional<Path> caFile, Optional<String> bindDn,
                                Optional<String> bindPassword, String userBaseDn, String userFilter,
                                Attributes attributes, Optional<String> groupBaseDn, String groupFilter,
                                String groupNameAttribute, boolean groupsFromMemberOf, Duration connectTimeout,
                                Duration responseTimeout, int poolSize, boolean localUsers, Duration recheckInterval,
                                Optional<String> adminGroup) {

    /**
     * Attribute names of the user entry. {@code claims} maps a standard claim, named as the user record names it
     * ({@code given_name}, {@code phone_number}, {@code address.locality} …), to the attributes that may hold it,
     * the first one present winning; a claim not in it is not the directory's.
     */
    public record Attributes(String subject, String username, String name, String email,
                             Map<String, List<String>> claims) {

        public Attributes {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            claims.forEach((claim, names) -> copy.put(claim, List.copyOf(names)));
            claims = Collections.unmodifiableMap(copy);
        }

        /** The default claim map, with given_name and family_name read from the attributes named here. */
        public Attributes(String subject, String username, String name, String givenName, String familyName,
                          String email) {
            this(subject, username, name, email, claimAttributes("", givenName, familyName));
        }
    }

    static final String CLAIM_ATTRIBUTES = "portcullis.ldap.claim-attributes";

    /**
     * The standard claims a directory attribute may supply: the texts and address members of the user record
     * (account.StandardClaims, which this package must not depend on; StandardClaimsTest keeps the two equal).
     */
    public static final List<String> DIRECTORY_CLAIMS = List.of("given_name", "family_name", "middle_name",
            "nickname", "picture", "website", "gender", "birthdate", "zoneinfo", "locale", "phone_number",
            "address.formatted", "address.street_address", "address.locality", "address.region",
            "address.postal_code", "address.country");

    /**
     * The defaults of {@value #CLAIM_ATTRIBUTES}: attributes of both inetOrgPerson (RFC 2798, RFC 4519) and Active
     * Directory, so either works unchanged; {@code street} is the former's street, {@code streetAddress} the latter's.
     */
    private static final String DEFAULT_CLAIM_ATTRIBUTES = "middle_name=middleName,locale=preferredLanguage,"
            + "phone_number=telephoneNumber|mobile,address.street_address=street|streetAddress,address.locality=l,"
            + "address.region=st,address.postal_code=postalCode,address.country=c";

    /** The claims a directory supplies when {@value #CLAIM_ATTRIBUTES} is not set. */
    public static Set<String> defaultDirectoryClaims() {
        return claimAttributes("", "givenName", "sn").keySet();
    }

    private static final Logger LOG = Logger.getLogger(DirectorySettings.class.getName());
    static final String ALLOW_PLAINTEXT = "portcullis.ldap.allow-plaintext";
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z][A-Za-z0-9-]{0,63}|[0-9]+(\\.[0-9]+)+");

    /** Whether a URL is {@code ldaps://} (TLS from the first byte). */
    public static boolean isLdaps(LDAPURL url) {
        return "ldaps".equalsIgnoreCase(url.getScheme());
    }

    public boolean usesTls() {
        return startTls || urls.stream().anyMatch(DirectorySettings::isLdaps);
    }

    static Optional<DirectorySettings> load(PortcullisConfig.Source c) {
        Optional<String> rawUrls = text(c, "portcullis.ldap.url");
        if (rawUrls.isEmpty()) {
            return Optional.empty();
        }
        List<LDAPURL> urls = new ArrayList<>();
        for (String u : rawUrls.get().split("\\s+")) {
            try {
                LDAPURL url = new LDAPURL(u);
                check(url.hostProvided() && url.getBaseDN().isNullDN() && url.getAttributes().length == 0,
                        "portcullis.ldap.url", "each URL must be ldap://host[:port] or ldaps://host[:port] with "
                                + "nothing after the port, got '" + u + "'");
                urls.add(url);
            } catch (LDAPException e) {
                throw new ConfigurationException("portcullis.ldap.url", "must be space-separated ldap:// or ldaps:// "
                        + "URLs, got '" + u + "'");
            }
        }
        check(urls.stream().map(DirectorySettings::isLdaps).distinct().count() == 1, "portcullis.ldap.url",
                "must be all ldap:// or all ldaps://, not a mix");
        boolean startTls = PortcullisConfig.bool(c, "portcullis.ldap.start-tls", false);
        check(!startTls || urls.stream().noneMatch(DirectorySettings::isLdaps), "portcullis.ldap.start-tls",
                "must not be combined with ldaps:// URLs (they are TLS already)");
        Optional<Path> caFile = text(c, "portcullis.ldap.ca-file").map(Path::of);
        boolean tls = startTls || urls.stream().anyMatch(DirectorySettings::isLdaps);
        plaintext(tls, PortcullisConfig.bool(c, ALLOW_PLAINTEXT, false));
        check(!tls || caFile.isPresent(), "portcullis.ldap.ca-file", "is required with ldaps:// or StartTLS: the "
                + "PEM file of the CA that issued the directory's certificate (certificates are never trusted blindly)");
        caFile.ifPresent(DirectorySettings::certificates);
        Optional<String> bindDn = text(c, "portcullis.ldap.bind-dn");
        Optional<String> bindPassword = c.getOptionalValue("portcullis.ldap.bind-password").filter(s -> !s.isEmpty());
        bindDn.ifPresent(d -> dn("portcullis.ldap.bind-dn", d));
        check(bindDn.isPresent() == bindPassword.isPresent(), bindDn.isPresent() ? "portcullis.ldap.bind-password"
                : "portcullis.ldap.bind-dn", "portcullis.ldap.bind-dn and portcullis.ldap.bind-password go together "
                + "(both set for a service account, both unset for anonymous search)");
        String userBaseDn = text(c, "portcullis.ldap.user-base-dn").orElseThrow(() -> new ConfigurationException(
                "portcullis.ldap.user-base-dn", "is required when portcullis.ldap.url is set"));
        dn("portcullis.ldap.user-base-dn", userBaseDn);
        String userFilter = text(c, "portcullis.ldap.user-filter").orElse("(uid={0})");
        check(userFilter.contains("{0}"), "portcullis.ldap.user-filter", "must contain {0} (the username)");
        filter("portcullis.ldap.user-filter", userFilter);
        Attributes attributes = new Attributes(attribute(c, "portcullis.ldap.attribute.subject", "entryUUID"),
                attribute(c, "portcullis.ldap.attribute.username", "uid"),
                attribute(c, "portcullis.ldap.attribute.name", "cn"),
                attribute(c, "portcullis.ldap.attribute.email", "mail"),
                claimAttributes(c.getOptionalValue(CLAIM_ATTRIBUTES).orElse(""),
                        attribute(c, "portcullis.ldap.attribute.given-name", "givenName"),
                        attribute(c, "portcullis.ldap.attribute.family-name", "sn")));
        Optional<String> groupBaseDn = text(c, "portcullis.ldap.group-base-dn");
        groupBaseDn.ifPresent(d -> dn("portcullis.ldap.group-base-dn", d));
        String groupFilter = text(c, "portcullis.ldap.group-filter").orElse("(member={dn})");
        filter("portcullis.ldap.group-filter", groupFilter);
        String groupName = attribute(c, "portcullis.ldap.group-name-attribute", "cn");
        boolean fromMemberOf = PortcullisConfig.bool(c, "portcullis.ldap.groups-from-member-of", false);
        Duration connectTimeout = PortcullisConfig.seconds(c, "portcullis.ldap.connect-timeout", 5, 1, 60);
        Duration responseTimeout = PortcullisConfig.seconds(c, "portcullis.ldap.response-timeout", 10, 1, 300);
        int poolSize = PortcullisConfig.integer(c, "portcullis.ldap.pool-size", 4, 1, 64);
        boolean localUsers = PortcullisConfig.bool(c, "portcullis.ldap.local-users", true);
        Duration recheck = PortcullisConfig.seconds(c, "portcullis.ldap.recheck-interval", 900, 0, 86_400);
        Optional<String> adminGroup = text(c, "portcullis.ldap.admin-group");
        adminGroup.filter(g -> g.contains("=")).ifPresent(g -> dn("portcullis.ldap.admin-group", g));
        return Optional.of(new DirectorySettings(List.copyOf(urls), startTls, caFile, bindDn, bindPassword,
                userBaseDn, userFilter, attributes, groupBaseDn, groupFilter, groupName, fromMemberOf, connectTimeout,
                responseTimeout, poolSize, localUsers, recheck, adminGroup));
    }

    /**
     * Whether a group of the user makes them an administrator: {@code portcullis.ldap.admin-group} is a DN (it holds
     * {@code =}), compared with the group's DN as a DN (any case, any spacing), or else a name, compared with the
     * group's name in any case.
     */
    public boolean isAdminGroup(String groupDn, String groupName) {
        if (adminGroup.isEmpty()) {
            return false;
        }
        String wanted = adminGroup.get();
        if (!wanted.contains("=")) {
            return groupName != null && groupName.equalsIgnoreCase(wanted);
        }
        try {
            return groupDn != null && new DN(wanted).equals(new DN(groupDn));
        } catch (LDAPException e) {
            return false;
        }
    }

    /** Never prints the bind password. */
    @Override
    public String toString() {
        return "DirectorySettings[urls=" + urls + ", userBaseDn=" + userBaseDn + "]";
    }

    /**
     * The claim map: given_name and family_name from {@code givenName} and {@code familyName}, then the defaults,
     * then {@code setting}'s comma-separated {@code claim=attribute[|fallback…]} entries, each replacing that
     * claim's entry; {@code claim=} alone turns the claim off.
     *
     * @throws ConfigurationException naming the entry when it is not of that form, names a claim twice or a claim
     *                                the directory cannot supply, or an attribute that is not an attribute name
     */
    static Map<String, List<String>> claimAttributes(String setting, String givenName, String familyName) {
        Map<String, List<String>> claims = new LinkedHashMap<>();
        claims.put("given_name", List.of(givenName));
        claims.put("family_name", List.of(familyName));
        claims.putAll(parseClaimAttributes(DEFAULT_CLAIM_ATTRIBUTES));
        parseClaimAttributes(setting).forEach((claim, names) -> {
            if (names.isEmpty()) {
                claims.remove(claim);
            } else {
                claims.put(claim, names);
            }
        });
        return claims;
    }

    /** The entries of one {@value #CLAIM_ATTRIBUTES} value; an entry turning its claim off maps to no attribute. */
    private static Map<String, List<String>> parseClaimAttributes(String setting) {
        Map<String, List<String>> entries = new LinkedHashMap<>();
        if (setting.isBlank()) {
            return entries;
        }
        for (String raw : setting.split(",", -1)) {
            String entry = raw.strip();
            int eq = entry.indexOf('=');
            check(eq > 0, CLAIM_ATTRIBUTES, "entry '" + entry + "' is not claim=attribute (or claim= to turn the "
                    + "claim off); entries are separated by commas");
            String claim = entry.substring(0, eq).strip();
            check(DIRECTORY_CLAIMS.contains(claim), CLAIM_ATTRIBUTES, "'" + claim + "' is not a claim the directory "
                    + "can supply; known: " + String.join(" ", DIRECTORY_CLAIMS));
            check(!entries.containsKey(claim), CLAIM_ATTRIBUTES, "names " + claim + " more than once");
            String value = entry.substring(eq + 1).strip();
            List<String> names = new ArrayList<>();
            if (!value.isEmpty()) {
                for (String name : value.split("\\|", -1)) {
                    check(ATTRIBUTE.matcher(name.strip()).matches(), CLAIM_ATTRIBUTES, "'" + name.strip()
                            + "' (for " + claim + ") is not an LDAP attribute name; alternatives are separated by |");
                    names.add(name.strip());
                }
            }
            entries.put(claim, List.copyOf(names));
        }
        return entries;
    }

    private static Optional<String> text(PortcullisConfig.Source c, String key) {
        return c.getOptionalValue(key).map(String::trim).filter(s -> !s.isEmpty());
    }

    private static String attribute(PortcullisConfig.Source c, String key, String def) {
        String v = text(c, key).orElse(def);
        check(ATTRIBUTE.matcher(v).matches(), key, "must be an LDAP attribute name, got '" + v + "'");
        return v;
    }

    /**
     * {@code ldap://} without StartTLS sends every password in clear text: refused, unless the operator says
     * {@code portcullis.ldap.allow-plaintext=true}, and then a warning at every start.
     */
    private static void plaintext(boolean tls, boolean allowed) {
        if (tls) {
            return;
        }
        check(allowed, "portcullis.ldap.url", "is ldap:// without portcullis.ldap.start-tls=true: every user's "
                + "password would cross the network in clear text. Use ldaps:// or StartTLS (with "
                + "portcullis.ldap.ca-file), or set " + ALLOW_PLAINTEXT + "=true ("
                + ConfigurationException.envName(ALLOW_PLAINTEXT) + ") to accept that");
        LOG.warning(() -> "LDAP without TLS (" + ALLOW_PLAINTEXT + "=true): every directory user's password "
                + "crosses the network in clear text; use ldaps:// or StartTLS");
    }

    /** The CA file must hold at least one PEM certificate, so a wrong path stops the start, not the first sign-in. */
    private static void certificates(Path file) {
        String key = "portcullis.ldap.ca-file";
        check(Files.isReadable(file), key, "is not a readable file: " + file);
        try (InputStream in = Files.newInputStream(file)) {
            check(!CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty(), key,
                    "holds no PEM certificate: " + file);
        } catch (IOException | CertificateException e) {
            throw new ConfigurationException(key, "is not a PEM certificate file: " + file);
        }
    }

    private static void dn(String key, String value) {
        try {
            new DN(value);
        } catch (LDAPException e) {
            throw new ConfigurationException(key, "is not a DN: '" + value + "'");
        }
    }

    /** Parses the filter with sample values in place of the placeholders. */
    private static void filter(String key, String value) {
        try {
            Filter.create(value.replace("{0}", "x").replace("{dn}", "cn=x"));
        } catch (LDAPException e) {
            throw new ConfigurationException(key, "is not an LDAP filter (RFC 4515): '" + value + "'");
        }
    }

    private static void check(boolean ok, String key, String message) {
        if (!ok) {
            throw new ConfigurationException(key, message);
        }
    }
}
