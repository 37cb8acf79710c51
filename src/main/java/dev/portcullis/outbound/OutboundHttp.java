package dev.portcullis.outbound;

import dev.portcullis.config.OutboundSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The one way Portcullis makes a request of its own (a client's {@code jwks_uri}, its {@code backchannel_logout_uri}):
 * the URL read strictly ({@link OutboundUrl}), its host resolved once, every address it resolves to checked
 * ({@link OutboundAddressPolicy}), and the connection made to the checked address itself, with the URL's host kept
 * in the {@code Host} header, in TLS's SNI and in the certificate's host name check, so a name that resolves
 * elsewhere a moment later (DNS rebinding) changes nothing. HTTP/1.1, one request per connection, no proxy, no
 * redirect followed (a 3xx is an answer like any other), the connection, the whole exchange (the look-up included)
 * and the body bounded by the caller's {@link Limits}. The same checks serve a registration
 * ({@link #checkDestination}).
 */
@ApplicationScoped
public class OutboundHttp {

    /** How long a host name may take to resolve at registration. */
    static final Duration REGISTRATION_LOOKUP = Duration.ofSeconds(2);
    private static final int MAX_LINE = 8 * 1024;
    private static final int MAX_HEADER_BYTES = 32 * 1024;
    private static final int MAX_INTERIM_ANSWERS = 5;

    /** What a request may take: to connect, in all (from the look-up to the last byte), and of the body. */
    public record Limits(Duration connect, Duration total, int maxBodyBytes) {
    }

    /** The status and, when the request reads one, the body. */
    public record Answer(int status, byte[] body) {
    }

    /**
     * Host name look-ups, each on a thread of its own so the caller's wait ends with its time-out (the JDK's resolver
     * has none); a look-up that outlives it ends on its own. At most 16 at once: a stalled DNS costs that many
     * threads, never the callers'.
     */
    private static final ThreadPoolExecutor LOOKUPS = new ThreadPoolExecutor(0, 16, 10, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "portcullis-outbound-lookup");
                t.setDaemon(true);
                return t;
            });

    /** A host name's addresses: the JDK's resolver, or a test's. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] addresses(String host) throws UnknownHostException;
    }

    private OutboundAddressPolicy policy;
    private SSLSocketFactory tls;
    private Resolver resolver;

    /** For CDI's proxy. */
    protected OutboundHttp() {
    }

    @Inject
    public OutboundHttp(OutboundSettings settings) {
        this(new OutboundAddressPolicy(settings.allowedNetworks()), null);
    }

    /** With {@code tls} null, the JDK's default TLS (its trust store). */
    public OutboundHttp(OutboundAddressPolicy policy, SSLSocketFactory tls) {
        this(policy, tls, InetAddress::getAllByName);
    }

    OutboundHttp(OutboundAddressPolicy policy, SSLSocketFactory tls, Resolver resolver) {
        this.policy = policy;
        this.tls = tls;
        this.resolver = resolver;
    }

    /**
     * Refuses, at registration, a URL no request would be made to: one {@link OutboundUrl} refuses, an address
     * outside the policy, or a host name that resolves to one. A name that does not resolve (yet) is accepted:
     * it reaches nothing, and every request checks what it resolves to then.
     */
    public void checkDestination(String url) throws OutboundFailure {
        OutboundUrl u = OutboundUrl.parse(url);
        List<InetAddress> addresses;
        try {
            addresses = resolve(u, System.nanoTime() + REGISTRATION_LOOKUP.toNanos());
        } catch (OutboundFailure e) {
            return;
        }
        check(u, addresses);
    }

    /** GETs {@code url} and reads its body within {@code limits}. */
    public Answer get(String url, String accept, Limits limits) throws OutboundFailure {
        return exchange(url, "GET", "Accept: " + accept + "\r\n", new byte[0], limits);
    }

    /** POSTs the form {@code body} (already encoded) to {@code url}. */
    public Answer postForm(String url, String body, Limits limits) throws OutboundFailure {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        return exchange(url, "POST", "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                + bytes.length + "\r\n", bytes, limits);
    }

    private Answer exchange(String url, String method, String headers, byte[] body, Limits limits)
            throws OutboundFailure {
        long deadline = System.nanoTime() + limits.total().toNanos();
        OutboundUrl u;
        List<InetAddress> addresses;
        try {
            u = OutboundUrl.parse(url);
            addresses = resolve(u, deadline);
            check(u, addresses);
        } catch (OutboundFailure e) {
            throw e.kind() == OutboundFailure.Kind.REFUSED
                    ? new OutboundFailure(OutboundFailure.Kind.REFUSED, url + ": " + e.getMessage()) : e;
        }
        Socket socket = connect(u, addresses, limits, deadline);
        AtomicBoolean timedOut = new AtomicBoolean();
        // the deadline holds however slowly the other side sends: closing the socket ends any read or handshake
        CompletableFuture.delayedExecutor(remainingMs(deadline), TimeUnit.MILLISECONDS, Runnable::run).execute(() -> {
            if (!socket.isClosed()) {
                timedOut.set(true);
                closeQuietly(socket);
            }
        });
        try {
            socket.setSoTimeout((int) Math.max(1, remainingMs(deadline)));
        } catch (IOException e) {
            closeQuietly(socket);
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, url + ": the connection ended");
        }
        try (Socket s = u.https() ? handshake(socket, u) : socket) {
            OutputStream out = s.getOutputStream();
            out.write((method + " " + u.target() + " HTTP/1.1\r\nHost: " + u.hostHeader() + "\r\n" + headers
                    + "User-Agent: Portcullis\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return read(new BufferedInputStream(s.getInputStream()), url, limits.maxBodyBytes());
        } catch (SocketTimeoutException e) {
            throw timedOut(url, limits);
        } catch (SSLException e) {
            if (timedOut.get()) {
                throw timedOut(url, limits);
            }
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, url + ": TLS failed ("
                    + e.getClass().getSimpleName() + ")");
        } catch (IOException e) {
            if (timedOut.get()) {
                throw timedOut(url, limits);
            }
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, url + ": the connection ended ("
                    + e.getClass().getSimpleName() + ")");
        } finally {
            closeQuietly(socket);
        }
    }

    /** The host's addresses (a literal's without a look-up), within the deadline. */
    private List<InetAddress> resolve(OutboundUrl u, long deadline) throws OutboundFailure {
        if (u.literal().isPresent()) {
            return List.of(u.literal().get());
        }
        Future<InetAddress[]> lookup;
        try {
            lookup = LOOKUPS.submit(() -> resolver.addresses(u.host()));
        } catch (RejectedExecutionException e) {
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, u.uri() + ": too many host look-ups at once");
        }
        try {
            InetAddress[] found = lookup.get(remainingMs(deadline), TimeUnit.MILLISECONDS);
            return List.of(found);
        } catch (TimeoutException e) {
            lookup.cancel(true);
            throw new OutboundFailure(OutboundFailure.Kind.TIMED_OUT, u.uri() + ": " + u.host()
                    + " did not resolve in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, u.uri() + ": interrupted");
        } catch (ExecutionException e) {
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, u.uri() + ": " + u.host()
                    + (e.getCause() instanceof UnknownHostException ? " has no address" : " did not resolve"));
        }
    }

    /** Every address must be reachable: a name that also points somewhere refused is refused whole. */
    private void check(OutboundUrl u, List<InetAddress> addresses) throws OutboundFailure {
        for (InetAddress a : addresses) {
            Optional<String> refusal = policy.refusal(a);
            if (refusal.isPresent()) {
                throw new OutboundFailure(OutboundFailure.Kind.REFUSED, u.literal().isPresent()
                        ? "names " + refusal.get() : "has a host that resolves to " + refusal.get());
            }
        }
    }

    /** A connection to the first of the checked addresses that takes one within the connect time-out. */
    private static Socket connect(OutboundUrl u, List<InetAddress> addresses, Limits limits, long deadline)
            throws OutboundFailure {
        String last = "no address";
        for (InetAddress a : addresses) {
            long ms = Math.min(limits.connect().toMillis(), remainingMs(deadline));
            if (ms <= 0) {
                break;
            }
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(a, u.port()), (int) ms);
                return s;
            } catch (SocketTimeoutException e) {
                closeQuietly(s);
                last = "no connection to " + a.getHostAddress() + " within " + ms + " ms";
            } catch (IOException e) {
                closeQuietly(s);
                last = "no connection to " + a.getHostAddress() + " (" + e.getClass().getSimpleName() + ")";
            }
        }
        throw new OutboundFailure(remainingMs(deadline) <= 0 || last.contains(" within ")
                ? OutboundFailure.Kind.TIMED_OUT : OutboundFailure.Kind.UNREACHABLE, u.uri() + ": " + last);
    }

    /** TLS over the connected socket, for the URL's host: SNI for a name, the certificate checked against it. */
    private Socket handshake(Socket plain, OutboundUrl u) throws IOException {
        SSLSocketFactory factory = tls != null ? tls : (SSLSocketFactory) SSLSocketFactory.getDefault();
        SSLSocket s = (SSLSocket) factory.createSocket(plain, u.host(), u.port(), true);
        SSLParameters p = s.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        if (u.literal().isEmpty()) {
            p.setServerNames(List.of(new SNIHostName(u.host())));
        }
        s.setSSLParameters(p);
        s.startHandshake();
        return s;
    }

    /** Reads the status line and headers, and the body when {@code maxBody} is above zero. */
    private static Answer read(InputStream in, String url, int maxBody) throws IOException, OutboundFailure {
        int status;
        List<String> headers;
        int interim = 0;
        while (true) {
            String statusLine = line(in, url);
            if (!statusLine.matches("HTTP/1\\.[01] [0-9]{3}( .*)?")) {
                throw malformed(url, "no HTTP/1.x status line");
            }
            status = Integer.parseInt(statusLine.substring(9, 12));
            headers = headers(in, url);
            if (status >= 200 || status == 101) {
                break;
            }
            if (++interim > MAX_INTERIM_ANSWERS) {
                throw malformed(url, "too many interim answers");
            }
        }
        if (maxBody <= 0 || status == 204 || status == 304 || status < 200) {
            return new Answer(status, new byte[0]);
        }
        List<String> encoding = values(headers, "transfer-encoding");
        List<String> length = values(headers, "content-length");
        if (!encoding.isEmpty()) {
            if (!length.isEmpty() || encoding.size() != 1 || !encoding.get(0).equalsIgnoreCase("chunked")) {
                throw malformed(url, "a transfer encoding other than chunked alone");
            }
            return new Answer(status, chunked(in, url, maxBody));
        }
        if (!length.isEmpty()) {
            if (length.stream().distinct().count() != 1 || !length.get(0).matches("[0-9]{1,10}")) {
                throw malformed(url, "no single valid Content-Length");
            }
            long n = Long.parseLong(length.get(0));
            if (n > maxBody) {
                throw tooLarge(url, maxBody);
            }
            return new Answer(status, exactly(in, (int) n, url));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) != -1; ) {
            if (body.size() + n > maxBody) {
                throw tooLarge(url, maxBody);
            }
            body.write(buffer, 0, n);
        }
        return new Answer(status, body.toByteArray());
    }

    private static byte[] chunked(InputStream in, String url, int maxBody) throws IOException, OutboundFailure {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in, url);
            int semicolon = size.indexOf(';');
            String hex = (semicolon < 0 ? size : size.substring(0, semicolon)).trim();
            if (!hex.matches("[0-9a-fA-F]{1,8}")) {
                throw malformed(url, "an invalid chunk size");
            }
            long n = Long.parseLong(hex, 16);
            if (n == 0) {
                headers(in, url); // trailers, read and ignored
                return body.toByteArray();
            }
            if (body.size() + n > maxBody) {
                throw tooLarge(url, maxBody);
            }
            body.write(exactly(in, (int) n, url));
            if (!line(in, url).isEmpty()) {
                throw malformed(url, "a chunk longer than its size");
            }
        }
    }

    private static byte[] exactly(InputStream in, int n, String url) throws IOException, OutboundFailure {
        byte[] bytes = in.readNBytes(n);
        if (bytes.length != n) {
            throw new OutboundFailure(OutboundFailure.Kind.UNREACHABLE, url + ": the answer ended early");
        }
        return bytes;
    }

    /** One header line without its CR LF; ISO-8859-1, as HTTP's octets are. */
    private static String line(InputStream in, String url) throws IOException, OutboundFailure {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b == -1) {
                throw new EOFException();
            }
            if (line.size() >= MAX_LINE) {
                throw malformed(url, "a line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        String s = line.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    private static List<String> headers(InputStream in, String url) throws IOException, OutboundFailure {
        List<String> headers = new ArrayList<>();
        int bytes = 0;
        for (String h; !(h = line(in, url)).isEmpty(); ) {
            bytes += h.length() + 2;
            if (bytes > MAX_HEADER_BYTES) {
                throw malformed(url, "headers longer than " + MAX_HEADER_BYTES + " bytes");
            }
            if (h.indexOf(':') <= 0 || h.startsWith(" ") || h.startsWith("\t")) {
                throw malformed(url, "a malformed header line");
            }
            headers.add(h);
        }
        return headers;
    }

    private static List<String> values(List<String> headers, String name) {
        List<String> values = new ArrayList<>();
        for (String h : headers) {
            int colon = h.indexOf(':');
            if (h.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
                for (String v : h.substring(colon + 1).split(",")) {
                    values.add(v.trim());
                }
            }
        }
        return values;
    }

    private static long remainingMs(long deadline) {
        return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    }

    private static OutboundFailure timedOut(String url, Limits limits) {
        return new OutboundFailure(OutboundFailure.Kind.TIMED_OUT, url + ": no complete answer within "
                + limits.total().toMillis() + " ms");
    }

    private static OutboundFailure tooLarge(String url, int maxBody) {
        return new OutboundFailure(OutboundFailure.Kind.TOO_LARGE, url + ": answered more than " + maxBody + " bytes");
    }

    private static OutboundFailure malformed(String url, String what) {
        return new OutboundFailure(OutboundFailure.Kind.MALFORMED, url + ": answered with " + what);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing is all that is left to do with it
        }
    }
}
