package dev.portcullis.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP forwarder that a test can cut and restore, to simulate a database outage for one server
 * without touching the database server that everything else uses. {@link #cut()} closes every open connection
 * and refuses new ones (connection refused); {@link #hang()} keeps every connection open and accepts new ones but
 * forwards nothing (a database that never answers); {@link #restore()} forwards again on the same port, closing the
 * connections that lost bytes while hanging.
 */
public final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    public final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile boolean hanging;

    public TcpProxy(int targetPort) {
        this.targetPort = targetPort;
        this.port = ItEnvironment.freePort();
        listen();
    }

    public synchronized void restore() {
        if (hanging) {
            hanging = false;
            closeConnections();
        }
        listen();
    }

    private void listen() {
        if (listener != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            listener = s;
            Thread acceptor = new Thread(() -> accept(s), "tcp-proxy-accept-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public synchronized void cut() {
        ServerSocket s = listener;
        listener = null;
        closeQuietly(s);
        closeConnections();
    }

    /** From now on every byte in either direction is dropped and new connections are accepted but never served. */
    public synchronized void hang() {
        hanging = true;
        listen();
    }

    private void closeConnections() {
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    @Override
    public void close() {
        cut();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                open.add(client);
                if (hanging) {
                    pipe(client, null);
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                open.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                return; // listener closed by cut()
            }
        }
    }

    /** Copies {@code from} to {@code to} (null: nowhere) until either closes, dropping the bytes while hanging. */
    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16_384];
            try (InputStream in = from.getInputStream();
                 OutputStream out = to == null ? OutputStream.nullOutputStream() : to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (!hanging) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // one side closed: close the other
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                if (to != null) {
                    open.remove(to);
                }
            }
        }, "tcp-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            // closing anyway
        }
    }
}
