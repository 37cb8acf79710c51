package dev.portcullis.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/prometheus/alerts.yml loads in Prometheus: {@code promtool check rules} (Debian's {@code prometheus} package,
 * installed by .ci/run) parses every rule and its PromQL. That the metrics it names exist is MetricsIT's.
 */
class AlertRulesTest {

    @Test
    void promtoolAcceptsTheAlertRules() throws IOException, InterruptedException {
        Path rules = Path.of("docs/prometheus/alerts.yml");
        Process p = new ProcessBuilder("promtool", "check", "rules", rules.toString()).redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("SUCCESS"), out);
        long alerts = Files.readAllLines(rules).stream().filter(l -> l.trim().startsWith("- alert:")).count();
        assertTrue(out.contains(alerts + " rules found"), "every rule of the file was checked: " + out);
    }
}
