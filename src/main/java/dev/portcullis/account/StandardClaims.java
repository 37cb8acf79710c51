package dev.portcullis.account;

import dev.portcullis.admin.Refusal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The OIDC Core 5.1 standard claims a user's record holds beyond {@code sub}, {@code name}, {@code email} and
 * {@code preferred_username}, and the rules their values follow. Texts are stored as given; {@code address} is
 * stored member by member ({@link #ADDRESS_MEMBERS}) and released as one JSON object.
 */
public final class StandardClaims {

    /** The text claims of scope {@code profile}, in release order (besides name and preferred_username). */
    public static final List<String> PROFILE_TEXTS = List.of("given_name", "family_name", "middle_name", "nickname",
            "picture", "website", "gender", "birthdate", "zoneinfo", "locale");

    public static final String PHONE_NUMBER = "phone_number";
    public static final String PHONE_NUMBER_VERIFIED = "phone_number_verified";
    public static final String ADDRESS = "address";

    /** Every text claim an administrator sets by name: the profile texts and the phone number. */
    public static final List<String> TEXTS = List.of("given_name", "family_name", "middle_name", "nickname",
            "picture", "website", "gender", "birthdate", "zoneinfo", "locale", PHONE_NUMBER);

    /** The members of the {@code address} claim (OIDC Core 5.1.1), in release order. */
    public static final List<String> ADDRESS_MEMBERS = List.of("formatted", "street_address", "locality", "region",
            "postal_code", "country");

    private static final Pattern BIRTHDATE = Pattern.compile("(\\d{4})(?:-(\\d{2})-(\\d{2}))?");
    /** E.164: a plus, a country code not starting with 0, at most 15 digits; an RFC 3966 extension may follow. */
    private static final Pattern PHONE = Pattern.compile("\\+[1-9]\\d{6,14}(?:;ext=\\d{1,10})?");

    private StandardClaims() {
    }

    /** The longest value a text claim or address member may have. */
    public static int maxLength(String claim) {
        return switch (claim) {
            case "picture", "website" -> 2000;
            case "gender" -> 50;
            case "birthdate" -> 10;
            case "zoneinfo" -> 64;
            case "locale" -> 35;
            case PHONE_NUMBER, "postal_code" -> 40;
            case "formatted", "street_address" -> 500;
            case "country" -> 100;
            default -> 200;
        };
    }

    /**
     * Checks one text claim ({@link #TEXTS}) as an administrator or the user sets it.
     *
     * @throws Refusal naming the claim and its rule when the value does not follow it
     */
    public static void check(String claim, String value) {
        if (!TEXTS.contains(claim)) {
            throw Refusal.invalid(claim, "not a standard claim");
        }
        checkText(claim, value, false);
        switch (claim) {
            case "picture", "website" -> {
                if (!isWebUrl(value)) {
                    throw Refusal.invalid(claim, "must be an absolute http or https URL");
                }
            }
            case "birthdate" -> {
                if (!isBirthdate(value)) {
                    throw Refusal.invalid(claim, "must be YYYY or YYYY-MM-DD (a real date; year 0000: omitted)");
                }
            }
            case "zoneinfo" -> {
                if (!isZone(value)) {
                    throw Refusal.invalid(claim, "must be an IANA time zone such as Europe/Paris");
                }
            }
            case "locale" -> {
                if (!isLocale(value)) {
                    throw Refusal.invalid(claim, "must be a BCP 47 language tag such as en-US");
                }
            }
            case PHONE_NUMBER -> {
                if (!PHONE.matcher(value).matches()) {
                    throw Refusal.invalid(claim, "must be in E.164 form, such as +14155550100 (;ext=123 allowed)");
                }
            }
            default -> {
            }
        }
    }

    /** Checks one member of {@code address}; formatted and street_address may hold line breaks (OIDC Core 5.1.1). */
    public static void checkAddressMember(String member, String value) {
        if (!ADDRESS_MEMBERS.contains(member)) {
            throw Refusal.invalid(ADDRESS, "unknown member " + member.replaceAll("[^A-Za-z0-9_]", "?")
                    + "; known: " + String.join(" ", ADDRESS_MEMBERS));
        }
        checkText(ADDRESS + "." + member, value, member.equals("formatted") || member.equals("street_address"));
    }

    private static void checkText(String field, String value, boolean lines) {
        String leaf = field.substring(field.indexOf('.') + 1);
        if (value.isBlank()) {
            throw Refusal.invalid(field, "must not be blank (null removes it)");
        }
        if (value.length() > maxLength(leaf)) {
            throw Refusal.invalid(field, "must be at most " + maxLength(leaf) + " characters");
        }
        if (value.codePoints().anyMatch(c -> Character.isISOControl(c) && !(lines && c == '\n'))) {
            throw Refusal.invalid(field, lines ? "must not contain control characters other than line breaks"
                    : "must not contain control characters");
        }
    }

    static boolean isWebUrl(String value) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null
                    && uri.getRawUserInfo() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    static boolean isBirthdate(String value) {
        var m = BIRTHDATE.matcher(value);
        if (!m.matches()) {
            return false;
        }
        if (m.group(2) == null) {
            return !m.group(1).equals("0000");
        }
        // year 0000 stands for "not disclosed" (OIDC Core 5.1); check the day against a leap year then
        int year = Integer.parseInt(m.group(1));
        try {
            LocalDate.of(year == 0 ? 2000 : year, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    static boolean isZone(String value) {
        return ZoneId.getAvailableZoneIds().contains(value);
    }

    static boolean isLocale(String value) {
        try {
            Locale locale = new Locale.Builder().setLanguageTag(value).build();
            return !locale.getLanguage().isEmpty();
        } catch (IllformedLocaleException e) {
            return false;
        }
    }
}
