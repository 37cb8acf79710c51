package dev.portcullis.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's own moving parts that decide its figures: percentiles, form reading, HTTP framing, /proc reading. */
class BenchHarnessTest {

    @Test
    void percentileIsNearestRankInMillis() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = (i + 1) * 1_000_000L; // 1..100 ms
        }
        assertEquals(50.0, LoadRunner.percentile(sorted, 0.50));
        assertEquals(99.0, LoadRunner.percentile(sorted, 0.99));
        assertEquals(7.0, LoadRunner.percentile(new long[] {7_000_000L}, 0.99));
        assertEquals(0.0, LoadRunner.percentile(new long[0], 0.5));
    }

    @Test
    void loginFormIsReadLikeABrowserWould() {
        String html = "<html><body><form id=\"search\" action=\"/x\"><input type=\"text\" name=\"q\"/></form>"
                + "<form id=\"login\" name=\"login\" method=\"post\" action=\"/login.xhtml?a=1&amp;b=2\" novalidate=\"novalidate\">"
                + "<input type=\"hidden\" name=\"login\" value=\"login\" />"
                + "<input id=\"login:username\" type=\"text\" name=\"login:username\" value=\"\" maxlength=\"100\"/>"
                + "<input id=\"login:password\" type=\"password\" name=\"login:password\" value=\"\"/>"
                + "<input id=\"login:csrf\" type=\"hidden\" name=\"login:csrf\" value=\"c&#39;s\"/>"
                + "<input type=\"submit\" name=\"login:submit\" value=\"Sign in\" class=\"button\"/>"
                + "<input type=\"submit\" name=\"login:other\" value=\"Other\"/>"
                + "<input type=\"hidden\" name=\"jakarta.faces.ViewState\" id=\"j_id1:jakarta.faces.ViewState:0\" value=\"stateless\"/>"
                + "</form></body></html>";
        Map<String, String> cookies = new LinkedHashMap<>();
        SignIn.LoginPage page = SignIn.parse("/login.xhtml?a=1", new Reply(200, Map.of(), html), cookies);
        assertEquals("/login.xhtml?a=1&b=2", page.action());
        assertEquals("login:username", page.usernameField());
        assertEquals("login:password", page.passwordField());
        assertEquals(Map.of("login", "login", "login:csrf", "c's", "login:submit", "Sign in",
                "jakarta.faces.ViewState", "stateless"), page.fields());
        assertThrows(FlowFailure.class, () -> SignIn.parse("/", new Reply(200, Map.of(), "<form><input name=a></form>"), cookies));
    }

    @Test
    void cookiesAreKeptAndDeleted() {
        Map<String, String> jar = new LinkedHashMap<>();
        SignIn.remember(jar, new Reply(302, Map.of("set-cookie", List.of("portcullis_session=abc; Path=/; HttpOnly",
                "portcullis_csrf=x; Path=/")), ""));
        SignIn.remember(jar, new Reply(302, Map.of("set-cookie", List.of("portcullis_csrf=; Max-Age=0; Path=/")), ""));
        assertEquals("portcullis_session=abc", SignIn.cookieHeader(jar));
        assertEquals("/oauth/authorize?x=1", SignIn.localPath("http://localhost:1234/oauth/authorize?x=1"));
    }

    @Test
    void rawClientReadsChunkedAndContentLengthBodiesOnOneConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            Thread t = new Thread(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    readHead(in);
                    out.write(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                            + "5\r\n{\"a\":\r\n4\r\n\"b\"}\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    readHead(in);
                    out.write("HTTP/1.1 302 Found\r\nLocation: /x\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            try (LoadHttp http = LoadHttp.open("raw", "127.0.0.1", server.getLocalPort())) {
                Reply first = http.get("/one");
                assertEquals(200, first.status());
                assertEquals("b", first.json("test").get("a"));
                Reply second = http.get("/two");
                assertEquals(302, second.status());
                assertEquals("/x", second.header("Location"));
                assertEquals(List.of("a=1", "b=2"), second.headers("set-cookie"));
            }
            t.join(10_000);
        }
    }

    @Test
    void procStatsSeeThisProcess() {
        long pid = ProcessHandle.current().pid();
        assertTrue(ProcStats.rssKib(pid) > 1024, "VmRSS of this JVM");
        assertTrue(ProcStats.cpuNanos(pid) > 0, "CPU time of this JVM");
        assertEquals(-1, ProcStats.rssKib(Long.MAX_VALUE));
        long jit = ProcStats.jitCpuNanos(pid);
        // this JVM has compiled the test framework by now: its compiler threads have used some of its CPU
        assertTrue(jit > 0 && jit <= ProcStats.cpuNanos(pid), "JIT compiler threads' CPU time: " + jit);
        assertEquals(-1, ProcStats.jitCpuNanos(Long.MAX_VALUE));
    }

    @Test
    void serverJvmOptionsFileIsExpandedWithoutItsComments() {
        List<String> options = BenchOptions.jvmOptions("-Da=1 @server-config/jvm.options -Db=2");
        assertEquals("-Da=1", options.get(0));
        assertEquals("-Db=2", options.get(options.size() - 1));
        assertEquals(1, options.stream().filter(o -> o.startsWith("-Xmx")).count(), options::toString);
        assertTrue(options.contains("-XX:CompileCommand=inline,org.bouncycastle.crypto.generators.Argon2BytesGenerator::*"));
        assertTrue(options.stream().allMatch(o -> o.startsWith("-")), options::toString);
    }

    /** A CompileCommand naming a class that a library upgrade renamed would match nothing, silently. */
    @Test
    void everyInlineCommandOfTheServerOptionsNamesAnExistingClass() throws ClassNotFoundException {
        List<String> classes = BenchOptions.jvmOptions("@server-config/jvm.options").stream()
                .filter(o -> o.startsWith("-XX:CompileCommand=inline,"))
                .map(o -> o.substring("-XX:CompileCommand=inline,".length(), o.indexOf("::")))
                .toList();
        assertEquals(2, classes.size(), classes::toString);
        for (String c : classes) {
            Class.forName(c, false, getClass().getClassLoader());
        }
    }

    private static void readHead(InputStream in) throws IOException {
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("eof");
            }
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
    }
}
