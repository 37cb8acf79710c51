package dev.portcullis.testing;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server of a test class that needs settings of its own ({@code -Dportcullis.x=y}): on the Payara Micro passes a
 * Payara Micro process started with them; on a full server run (Payara Server, WildFly), that run's one server,
 * which is started with {@link #FULL_SERVER_SETTINGS} — a class asking for a setting not among them fails at once
 * rather than testing something else.
 */
public interface ClassServer extends AutoCloseable {

    /**
     * What the full servers are started with besides the database: the union of the settings of the classes that
     * run there (docs/servers.md), none of which changes what the other classes there test.
     */
    Map<String, String> FULL_SERVER_SETTINGS = Map.of("portcullis.mfa.required", "off",
            "portcullis.mfa.passwordless", "true", "portcullis.login.slowdown-after", "5");

    /**
     * The value of a setting on the run's server: {@link #FULL_SERVER_SETTINGS} on a full server run, else the
     * WAR's default, which the run's Payara Micro servers keep.
     */
    static String runSetting(String key, String warDefault) {
        return ItEnvironment.fullServer() == null ? warDefault : FULL_SERVER_SETTINGS.getOrDefault(key, warDefault);
    }

    /** e.g. {@code http://localhost:41234}, also the issuer. */
    String base();

    /** The server's output so far, for failure messages. */
    String output();

    default Http http() {
        return new Http(base());
    }

    @Override
    void close();

    static ClassServer start(String... systemProperties) {
        if (ItEnvironment.fullServer() == null) {
            return PayaraProcess.start(systemProperties);
        }
        for (String p : systemProperties) {
            String[] kv = p.replaceFirst("^-D", "").split("=", 2);
            if (!kv[1].equals(FULL_SERVER_SETTINGS.get(kv[0]))) {
                throw new IllegalStateException("this class needs " + p + ", which the full server is not started with "
                        + "(ClassServer.FULL_SERVER_SETTINGS): " + Arrays.toString(systemProperties));
            }
        }
        String fullServer = ItEnvironment.fullServer();
        return new Reached(System.getProperty("portcullis.test.base-url"),
                () -> "(the log of the run's " + fullServer + " is under target/)",
                () -> { }); // the run's server outlives the class
    }

    /**
     * A server of the class's own on every kind of run: a Payara Micro, or on a full server run a second server of
     * that kind (its own directory and ports) with the run's settings (same database and admin token) plus these,
     * as environment variables. For settings that exist only once the class runs (the Kerberos test's KDC and
     * keytab), at the cost of one more server start.
     */
    static ClassServer startOwn(String... systemProperties) {
        String kind = ItEnvironment.fullServer();
        if (kind == null) {
            return PayaraProcess.start(systemProperties);
        }
        Map<String, String> settings = new LinkedHashMap<>(ItEnvironment.runSettings);
        for (String p : systemProperties) {
            String[] kv = p.replaceFirst("^-D", "").split("=", 2);
            settings.put(kv[0], kv[1]);
        }
        AppServer.Started started = AppServer.start(kind, settings);
        return new Reached("http://localhost:" + started.port(), started.server()::tail, started.server()::close);
    }

    /** A server that is already running at {@code base}, with how to read its log and how to stop it. */
    record Reached(String base, Supplier<String> log, Runnable stop) implements ClassServer {
        @Override
        public String output() {
            return log.get();
        }

        @Override
        public void close() {
            stop.run();
        }
    }
}
