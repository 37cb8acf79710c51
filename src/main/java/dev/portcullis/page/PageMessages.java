package dev.portcullis.page;

import java.text.MessageFormat;
import java.util.AbstractMap;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;

/**
 * The localised texts of the browser pages (bundle {@code dev.portcullis.messages}: English, German). The language is
 * picked from {@code ui_locales} (OIDC Core 3.1.2.1), then Accept-Language, else English. Exposed to Faces as a map,
 * so pages write {@code #{bean.msg['login.title']}}.
 */
public final class PageMessages extends AbstractMap<String, String> {

    public static final String BUNDLE = "dev.portcullis.messages";
    public static final List<Locale> SUPPORTED = List.of(Locale.ENGLISH, Locale.GERMAN);

    private final Locale locale;
    private final ResourceBundle bundle;

    public PageMessages(Locale locale) {
        this.locale = locale;
        this.bundle = ResourceBundle.getBundle(BUNDLE, locale,
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** First supported language of ui_locales (space-separated BCP 47 tags), then of Accept-Language. */
    public static Locale pick(String uiLocales, Enumeration<Locale> acceptLanguage) {
        if (uiLocales != null) {
            for (String tag : uiLocales.trim().split(" +")) {
                Locale l = supported(Locale.forLanguageTag(tag));
                if (l != null) {
                    return l;
                }
            }
        }
        while (acceptLanguage != null && acceptLanguage.hasMoreElements()) {
            Locale l = supported(acceptLanguage.nextElement());
            if (l != null) {
                return l;
            }
        }
        return Locale.ENGLISH;
    }

    private static Locale supported(Locale l) {
        return SUPPORTED.stream().filter(s -> s.getLanguage().equals(l.getLanguage())).findFirst().orElse(null);
    }

    public Locale locale() {
        return locale;
    }

    /** The text for a key; a missing key shows as the key itself rather than breaking the page. */
    @Override
    public String get(Object key) {
        try {
            return bundle.getString(String.valueOf(key));
        } catch (MissingResourceException e) {
            return String.valueOf(key);
        }
    }

    public String format(String key, Object... args) {
        return new MessageFormat(get(key), locale).format(args);
    }

    @Override
    public boolean containsKey(Object key) {
        return bundle.containsKey(String.valueOf(key));
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        throw new UnsupportedOperationException("look texts up by key");
    }
}
