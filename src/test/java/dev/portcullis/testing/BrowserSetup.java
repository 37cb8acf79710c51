package dev.portcullis.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;

/**
 * What the browser tests share: Debian's headless Chromium driven by its chromedriver (paths set explicitly, so
 * Selenium Manager never runs), and a tiny HTTP server playing a client's callback, so the browser really arrives
 * at the client (page with {@code id="callback"}).
 */
public final class BrowserSetup {

    private BrowserSetup() {
    }

    public static ChromeDriver chromium() {
        return chromium("en-US");
    }

    /** Chromium whose pages ask for {@code language} first (Accept-Language). */
    public static ChromeDriver chromium(String language) {
        return chromium(language, Map.of());
    }

    /**
     * Chromium whose pages ask for {@code language} first, started with {@code environment} added to its own (a
     * Kerberos ticket cache, say) and {@code arguments} after the shared ones.
     */
    public static ChromeDriver chromium(String language, Map<String, String> environment, String... arguments) {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).withEnvironment(environment).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--window-size=1100,1000", "--lang=" + language);
        options.addArguments(arguments);
        return new ChromeDriver(service, options);
    }

    /**
     * Whether {@code e} means that the element's document has been replaced (a navigation). Chromium reports that as
     * a stale element or, when the inspector still holds the node of the old document, as the unclassified "Node with
     * given id does not belong to the document"; Selenium's own conditions know only the first.
     */
    public static boolean documentReplaced(WebDriverException e) {
        return e instanceof StaleElementReferenceException
                || String.valueOf(e.getMessage()).contains("does not belong to the document");
    }

    /** A wait condition that holds once {@code element}'s document has been replaced, under either report. */
    public static ExpectedCondition<Boolean> replaced(WebElement element) {
        return driver -> {
            try {
                element.isEnabled();
                return false;
            } catch (WebDriverException e) {
                if (documentReplaced(e)) {
                    return true;
                }
                throw e;
            }
        };
    }

    /** A started callback server on 127.0.0.1 answering {@code /cb}; its URI is {@link #callbackUri}. */
    public static HttpServer callbackServer() throws IOException {
        HttpServer callback = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        callback.createContext("/cb", exchange -> {
            // a form post (response_mode=form_post) is shown as its method and form-encoded body
            String posted = "";
            if ("POST".equals(exchange.getRequestMethod())) {
                posted = "<p id=\"posted\">" + new String(exchange.getRequestBody().readAllBytes(),
                        StandardCharsets.UTF_8).replace("&", "&amp;").replace("<", "&lt;") + "</p>";
            }
            byte[] body = ("<!DOCTYPE html><title>Client callback</title><h1 id=\"callback\">Back at the client</h1>"
                    + posted).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        callback.start();
        return callback;
    }

    public static String callbackUri(HttpServer callback) {
        return "http://127.0.0.1:" + callback.getAddress().getPort() + "/cb";
    }
}
