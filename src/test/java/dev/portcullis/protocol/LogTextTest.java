package dev.portcullis.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogTextTest {

    @Test
    void plainTextIsReturnedAsIs() {
        String s = "alice@example.com Ünïcødé 名前";
        assertSame(s, LogText.escape(s));
        assertNull(LogText.escape(null));
    }

    @Test
    void aForgedLogLineStaysOnOneLine() {
        assertEquals("alice\\u000d\\u000aINFO: SIGN_IN_SUCCESS subject=admin",
                LogText.escape("alice\r\nINFO: SIGN_IN_SUCCESS subject=admin"));
    }

    @ParameterizedTest
    @ValueSource(chars = {'\u0000', '\u0007', '\t', '\n', '\u000b', '\u000c', '\r', '\u001b', '\u007f', '\u0085',
        '\u009b', '\u2028', '\u2029'})
    void everyControlCharacterIsEscaped(char c) {
        assertEquals("a" + String.format("\\u%04x", (int) c) + "b", LogText.escape("a" + c + "b"));
    }

    @Test
    void aBackslashIsDoubledSoAnEscapeCannotBeFaked() {
        assertEquals("a\\\\u000ab", LogText.escape("a\\u000ab"));
    }
}
