package dev.portcullis.bench;

import java.io.IOException;

/**
 * One thing the bench measures. The runner calls {@link #prepare} once per worker (not timed: its own connection,
 * SSO session, tokens), then {@link Worker#runOnce} in a loop through the warm-up and the measured window.
 */
interface Scenario {

    String name();

    /** Concurrent workers for this scenario (bench.workers unless the scenario says otherwise). */
    default int workers(BenchOptions o) {
        return o.workers();
    }

    /** Throws {@link ScenarioUnavailable} when an endpoint the scenario needs is not on this server (e.g. 404). */
    Worker prepare(int index, Target target) throws IOException, ScenarioUnavailable;

    interface Worker {
        /**
         * One flow with every response checked; returns the latency in nanoseconds of the measured part (the whole
         * flow, except for sign-in: only its credential POST). Throws {@link FlowFailure} on any unexpected answer.
         */
        long runOnce() throws IOException;

        void close();
    }
}
