package dev.portcullis.config;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The one clock every service asks for the time; a single place to reason about time. */
@ApplicationScoped
public class ClockProducer {

    @Produces
    @jakarta.inject.Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
