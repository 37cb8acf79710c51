package dev.portcullis.account;

import dev.portcullis.persistence.Jpa;
import jakarta.persistence.Cacheable;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.persistence.annotations.Cache;

/**
 * An end user who signs in in the browser. {@code userId} is the OIDC {@code sub}: random and never reused for a
 * local user; the directory's stable id (entryUUID / objectGUID) for a user from LDAP, whose row is created at the
 * first sign-in and whose claims and groups are copied from the directory at each sign-in and re-check.
 */
@Entity
@Table(name = "users")
@Cacheable
@Cache(expiry = Jpa.CACHED_READ_MILLIS)
@NamedQuery(name = User.READ_BY_ID, query = "SELECT u FROM User u WHERE u.userId = :id", hints = {
    @QueryHint(name = Jpa.READ_ONLY, value = "true"),
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.DO_NOT_CHECK_CACHE),
    @QueryHint(name = Jpa.REFRESH, value = "true")})
@NamedQuery(name = User.CACHED_BY_ID, query = "SELECT u FROM User u WHERE u.userId = :id", hints = {
    @QueryHint(name = Jpa.READ_ONLY, value = "true"),
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.CHECK_CACHE_BY_PRIMARY_KEY)})
@NamedQuery(name = User.READ_BY_USERNAME, query = "SELECT u FROM User u WHERE u.username = :u", hints = {
    @QueryHint(name = Jpa.READ_ONLY, value = "true"),
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.DO_NOT_CHECK_CACHE),
    @QueryHint(name = Jpa.REFRESH, value = "true")})
@NamedQuery(name = User.BY_USERNAME, query = "SELECT u FROM User u WHERE u.username = :u", hints = {
    @QueryHint(name = Jpa.CACHE_USAGE, value = Jpa.DO_NOT_CHECK_CACHE),
    @QueryHint(name = Jpa.REFRESH, value = "true")})
public class User {

    /** The role that lets a user into the admin console. */
    public static final String ADMIN = "admin";

    /** The role catalogue: every role a user can be given. */
    public static final Set<String> ROLES = Set.of(ADMIN);

    /** The queries of {@link UserRepository}, parsed once at deployment: three read-only reads, one for changes. */
    static final String READ_BY_ID = "User.readById";
    static final String CACHED_BY_ID = "User.cachedById";
    static final String READ_BY_USERNAME = "User.readByUsername";
    static final String BY_USERNAME = "User.byUsername";

    @Id
    @Column(name = "user_id")
    private String userId;

    private String username;

    private String email;

    private String name;

    @Column(name = "password_hash")
    private String passwordHash;

    private boolean enabled = true;

    /** Space-separated names from {@link #ROLES}. */
    private String roles = "";

    @Column(name = "created_at")
    private long createdAt;

    @Column(name = "updated_at")
    private long updatedAt;

    /** {@link #LOCAL} or {@link #LDAP}. */
    private String source = LOCAL;

    @Column(name = "directory_dn")
    private String directoryDn;

    @Column(name = "given_name")
    private String givenName;

    @Column(name = "family_name")
    private String familyName;

    /** Group names, one per line (directory users only). */
    @Column(name = "directory_groups")
    private String directoryGroups;

    /** Group names, one per line, sorted (local users only; the admin API and console set them). */
    @Column(name = "local_groups")
    private String localGroups;

    @Column(name = "directory_checked_at")
    private Long directoryCheckedAt;

    @Column(name = "middle_name")
    private String middleName;

    private String nickname;

    private String picture;

    private String website;

    private String gender;

    /** YYYY or YYYY-MM-DD (year 0000: not disclosed). */
    private String birthdate;

    private String zoneinfo;

    private String locale;

    @Column(name = "phone_number")
    private String phoneNumber;

    @Column(name = "phone_number_verified")
    private boolean phoneNumberVerified;

    @Column(name = "address_formatted")
    private String addressFormatted;

    @Column(name = "address_street")
    private String addressStreet;

    @Column(name = "address_locality")
    private String addressLocality;

    @Column(name = "address_region")
    private String addressRegion;

    @Column(name = "address_postal_code")
    private String addressPostalCode;

    @Column(name = "address_country")
    private String addressCountry;

    /**
     * When a released claim last changed (epoch seconds), the {@code updated_at} claim; {@link #updatedAt} also
     * moves with passwords, roles and the like.
     */
    @Column(name = "profile_updated_at")
    private Long profileUpdatedAt;

    /** Member of {@code portcullis.ldap.admin-group} at the last sign-in or re-check (directory users only). */
    @Column(name = "directory_admin")
    private boolean directoryAdmin;

    public static final String LOCAL = "local";
    public static final String LDAP = "ldap";

    protected User() {
    }

    User(String userId, String username, String email, String name, String passwordHash, Instant now) {
        this.userId = userId;
        this.username = username;
        this.email = email;
        this.name = name;
        this.passwordHash = passwordHash;
        this.createdAt = now.getEpochSecond();
        this.updatedAt = createdAt;
        this.profileUpdatedAt = createdAt;
    }

    public String userId() {
        return userId;
    }

    public String username() {
        return username;
    }

    public String email() {
        return email;
    }

    public String name() {
        return name;
    }

    public String passwordHash() {
        return passwordHash;
    }

    /** A disabled user cannot sign in, and no token of theirs works. */
    public boolean enabled() {
        return enabled;
    }

    /** The user's roles, sorted. */
    public SortedSet<String> roles() {
        SortedSet<String> out = new TreeSet<>();
        for (String r : roles == null ? new String[0] : roles.split(" ")) {
            if (!r.isEmpty()) {
                out.add(r);
            }
        }
        return out;
    }

    public boolean hasRole(String role) {
        return roles().contains(role);
    }

    public Instant createdAt() {
        return Instant.ofEpochSecond(createdAt);
    }

    void changeProfile(String email, String name, Instant now) {
        this.email = email;
        this.name = name;
        this.updatedAt = now.getEpochSecond();
        this.profileUpdatedAt = updatedAt;
    }

    /**
     * A text claim of {@link StandardClaims#TEXTS} or a member of {@code address} named
     * {@code address.<member>}; null when the user has none.
     */
    public String claim(String name) {
        return switch (name) {
            case "given_name" -> givenName;
            case "family_name" -> familyName;
            case "middle_name" -> middleName;
            case "nickname" -> nickname;
            case "picture" -> picture;
            case "website" -> website;
            case "gender" -> gender;
            case "birthdate" -> birthdate;
            case "zoneinfo" -> zoneinfo;
            case "locale" -> locale;
            case "phone_number" -> phoneNumber;
            case "address.formatted" -> addressFormatted;
            case "address.street_address" -> addressStreet;
            case "address.locality" -> addressLocality;
            case "address.region" -> addressRegion;
            case "address.postal_code" -> addressPostalCode;
            case "address.country" -> addressCountry;
            default -> throw new IllegalArgumentException("not a stored claim: " + name);
        };
    }

    /** Sets or (null) removes a claim named as {@link #claim} names it; the caller has validated the value. */
    void changeClaim(String name, String value, Instant now) {
        switch (name) {
            case "given_name" -> givenName = value;
            case "family_name" -> familyName = value;
            case "middle_name" -> middleName = value;
            case "nickname" -> nickname = value;
            case "picture" -> picture = value;
            case "website" -> website = value;
            case "gender" -> gender = value;
            case "birthdate" -> birthdate = value;
            case "zoneinfo" -> zoneinfo = value;
            case "locale" -> locale = value;
            case "phone_number" -> phoneNumber = value;
            case "address.formatted" -> addressFormatted = value;
            case "address.street_address" -> addressStreet = value;
            case "address.locality" -> addressLocality = value;
            case "address.region" -> addressRegion = value;
            case "address.postal_code" -> addressPostalCode = value;
            case "address.country" -> addressCountry = value;
            default -> throw new IllegalArgumentException("not a stored claim: " + name);
        }
        this.updatedAt = now.getEpochSecond();
        this.profileUpdatedAt = updatedAt;
    }

    public boolean phoneNumberVerified() {
        return phoneNumberVerified;
    }

    void changePhoneNumberVerified(boolean verified, Instant now) {
        this.phoneNumberVerified = verified;
        this.updatedAt = now.getEpochSecond();
        this.profileUpdatedAt = updatedAt;
    }

    /** The members of {@code address} the user has, in {@link StandardClaims#ADDRESS_MEMBERS} order. */
    public Map<String, String> address() {
        Map<String, String> members = new LinkedHashMap<>();
        for (String member : StandardClaims.ADDRESS_MEMBERS) {
            String value = claim(StandardClaims.ADDRESS + "." + member);
            if (value != null) {
                members.put(member, value);
            }
        }
        return members;
    }

    /** The {@code updated_at} claim: when a released claim last changed. */
    public Instant profileUpdatedAt() {
        return Instant.ofEpochSecond(profileUpdatedAt == null ? updatedAt : profileUpdatedAt);
    }

    void changeEnabled(boolean enabled, Instant now) {
        this.enabled = enabled;
        this.updatedAt = now.getEpochSecond();
    }

    void changeRoles(Set<String> roles, Instant now) {
        this.roles = String.join(" ", new TreeSet<>(roles));
        this.updatedAt = now.getEpochSecond();
    }

    /** {@code local} or {@code ldap}. */
    public String source() {
        return source;
    }

    public boolean fromDirectory() {
        return LDAP.equals(source);
    }

    /** The entry's DN at the last sign-in or re-check (directory users only). */
    public String directoryDn() {
        return directoryDn;
    }

    public String givenName() {
        return givenName;
    }

    public String familyName() {
        return familyName;
    }

    /**
     * Whether the user may use the admin console: the {@link #ADMIN} role (granted by the admin API), or, for a
     * directory user, membership of {@code portcullis.ldap.admin-group} at their last sign-in or re-check.
     */
    public boolean isAdministrator() {
        return hasRole(ADMIN) || LDAP.equals(source) && directoryAdmin;
    }

    /** Whether the administrator right comes from the directory's admin group. */
    public boolean isDirectoryAdministrator() {
        return LDAP.equals(source) && directoryAdmin;
    }

    /**
     * The groups released under scope {@code groups}: a directory user's as captured at the last sign-in or
     * re-check, a local user's as an administrator set them (sorted).
     */
    public List<String> groups() {
        String lines = fromDirectory() ? directoryGroups : localGroups;
        return lines == null || lines.isEmpty() ? List.of() : List.of(lines.split("\n"));
    }

    /** Replaces a local user's groups; the caller has validated, sorted and de-duplicated them. */
    void changeGroups(List<String> groups, Instant now) {
        this.localGroups = groups.isEmpty() ? null : String.join("\n", groups);
        this.updatedAt = now.getEpochSecond();
    }

    /** When the directory last confirmed the entry (epoch seconds); null for local users. */
    public Long directoryCheckedAt() {
        return directoryCheckedAt;
    }

    /** A new row for a directory user at their first sign-in; {@link #copyFromDirectory} fills it. */
    static User newFromDirectory(String subject, Instant now) {
        User u = new User(subject, null, null, null, null, now);
        u.source = LDAP;
        return u;
    }

    /** Takes the directory's current values; the caller has checked their lengths. */
    void copyFromDirectory(String username, String dn, String name, String givenName, String familyName,
                           String email, List<String> groups, boolean administrator, Instant now) {
        this.username = username;
        this.directoryDn = dn;
        this.name = name;
        this.givenName = givenName;
        this.familyName = familyName;
        this.email = email;
        this.directoryGroups = String.join("\n", groups);
        this.directoryAdmin = administrator;
        this.directoryCheckedAt = now.getEpochSecond();
        this.updatedAt = now.getEpochSecond();
        this.profileUpdatedAt = updatedAt;
    }

    void changePasswordHash(String hash, Instant now) {
        this.passwordHash = hash;
        this.updatedAt = now.getEpochSecond();
    }
}
