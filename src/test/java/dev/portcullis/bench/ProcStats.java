package dev.portcullis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resource use of one process from Linux /proc: resident set size ({@code VmRSS} of /proc/PID/status) and CPU time
 * (utime + stime, fields 14 and 15 of /proc/PID/stat, in clock ticks of {@code getconf CLK_TCK}), in all or only in
 * the JIT compiler threads (/proc/PID/task/TID/stat).
 */
final class ProcStats {

    private static final long TICKS_PER_SECOND = clockTicks();

    private ProcStats() {
    }

    /** VmRSS in KiB, or -1 when the process is gone. */
    static long rssKib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** utime + stime in nanoseconds, or -1 when the process is gone. */
    static long cpuNanos(long pid) {
        try {
            return ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))) * 1_000_000_000L
                    / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU time of the JIT compiler threads (Linux thread names {@code C1 CompilerThre…} / {@code C2 CompilerThre…}) in
     * nanoseconds, or -1 when the process is gone. Part of {@link #cpuNanos}: it shows how much of a window's server CPU
     * was the JIT still compiling rather than the requests. A compiler thread that exits inside a window (HotSpot
     * starts and stops extra ones on demand) takes its time with it, so this is a lower bound.
     */
    static long jitCpuNanos(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long ticks = 0;
        try (var dirs = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) dirs::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        ticks += ticks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException | RuntimeException threadGone) {
                    // the thread ended between listing and reading: its time is no longer attributable
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return ticks * 1_000_000_000L / TICKS_PER_SECOND;
    }

    /** utime + stime of a /proc/…/stat line, in clock ticks. */
    private static long ticks(String stat) {
        // the command name (field 2) may contain spaces: count fields after its closing parenthesis
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 (utime) and 15 (stime)
    }

    static long ticksPerSecond() {
        return TICKS_PER_SECOND;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
