package dev.portcullis.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
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
}
