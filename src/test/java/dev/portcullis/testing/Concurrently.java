package dev.portcullis.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs copies of one task on as many threads, released together by a barrier, and returns their results. */
public final class Concurrently {

    private Concurrently() {
    }

    public static <T> List<T> run(int copies, Callable<T> task) throws Exception {
        CyclicBarrier start = new CyclicBarrier(copies);
        Callable<T> released = () -> {
            start.await();
            return task.call();
        };
        ExecutorService pool = Executors.newFixedThreadPool(copies);
        List<T> results = new ArrayList<>();
        try {
            for (Future<T> f : pool.invokeAll(Collections.nCopies(copies, released), 60, TimeUnit.SECONDS)) {
                results.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        return results;
    }
}
