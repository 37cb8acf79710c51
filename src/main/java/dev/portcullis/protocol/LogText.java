package dev.portcullis.protocol;

/**
 * Values from requests made safe for a log line or an audit row: control characters (C0, DEL, C1, and the Unicode
 * line and paragraph separators) become a backslash, "u" and four hex digits, so a value with CR/LF cannot forge a
 * second log line and a terminal escape cannot reach an operator's screen; a backslash is doubled so an escape
 * stays unambiguous.
 */
public final class LogText {

    private LogText() {
    }

    public static String escape(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !needsEscape(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                b.append("\\\\");
            } else if (needsEscape(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == '\\' || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
