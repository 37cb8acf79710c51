package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;

class BackchannelLogoutSenderTest {

    @Test
    void aSilentReceiverIsNamedTheSameWhicheverTimeOutFiresFirst() {
        // the client's request time-out (HttpTimeoutException) and the sender's own wait (TimeoutException) end together
        assertEquals("no answer within 5000 ms", BackchannelLogoutSender.notAnswered(new HttpTimeoutException("x")));
    }

    @Test
    void aConnectionThatIsNeverMadeIsNamedAsSuch() {
        assertEquals("no connection within 5000 ms",
                BackchannelLogoutSender.notAnswered(new HttpConnectTimeoutException("x")));
    }

    @Test
    void anyOtherFailureIsNamedByItsKind() {
        assertEquals("not answered: IOException", BackchannelLogoutSender.notAnswered(new IOException("reset")));
    }

    /**
     * The sender learns of a logout queued on this instance from {@link BackchannelLogoutsQueued}, observed after the
     * queueing transaction committed (a rolled-back logout wakes nothing), and then claims at once; once stopped, it
     * starts nothing more.
     */
    @Test
    void aCommittedQueueWakesTheSenderUntilItStops() throws Exception {
        Method observer = BackchannelLogoutSender.class.getMethod("queued", BackchannelLogoutsQueued.class);
        assertTrue(Modifier.isPublic(observer.getModifiers()), "an EJB observes through a business method");
        assertEquals(TransactionPhase.AFTER_SUCCESS, observer.getParameters()[0].getAnnotation(Observes.class).during());

        List<String> started = new ArrayList<>();
        ScheduledFuture<?> poll = (ScheduledFuture<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ScheduledFuture.class}, (proxy, m, args) -> m.getName().equals("cancel") ? true : null);
        BackchannelLogoutSender sender = new BackchannelLogoutSender();
        sender.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, m, args) -> {
                    started.add(m.getName());
                    return m.getName().equals("scheduleWithFixedDelay") ? poll : null;
                });
        sender.start();
        sender.queued(new BackchannelLogoutsQueued(2));
        assertEquals(List.of("scheduleWithFixedDelay", "execute"), started, "the poll, then a claim at once");
        sender.stop();
        sender.queued(new BackchannelLogoutsQueued(1));
        assertEquals(2, started.size(), "nothing started after the stop");
    }
}
