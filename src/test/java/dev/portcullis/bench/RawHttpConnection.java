package dev.portcullis.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 keep-alive client over one socket: Content-Length and chunked bodies, reconnect when the
 * server closes the connection. Enough for the JSON and HTML responses of Portcullis, and a few microseconds per
 * request instead of HttpClient's executor hand-offs.
 */
final class RawHttpConnection implements LoadHttp {

    private static final int TIMEOUT_MILLIS = 30_000;

    private final String host;
    private final int port;
    private final String hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    RawHttpConnection(String host, int port) {
        this.host = host;
        this.port = port;
        this.hostHeader = "localhost:" + port;
    }

    @Override
    public Reply send(String method, String pathAndQuery, String contentType, String body, String... headers)
            throws IOException {
        byte[] payload = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(pathAndQuery)
                .append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\nAccept: */*\r\n");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            head.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        if (payload != null) {
            head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(payload.length)
                    .append("\r\n");
        }
        head.append("\r\n");
        boolean fresh = socket == null;
        try {
            return exchange(head, payload);
        } catch (IOException e) {
            close();
            if (fresh) {
                throw e;
            }
            return exchange(head, payload); // the server closed an idle keep-alive connection: retry once, fresh
        }
    }

    private Reply exchange(StringBuilder head, byte[] payload) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = new BufferedOutputStream(socket.getOutputStream(), 8 * 1024);
        }
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (payload != null) {
            out.write(payload);
        }
        out.flush();
        String statusLine = line();
        if (statusLine == null) {
            throw new EOFException("connection closed before the status line");
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.computeIfAbsent(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>(1))
                    .add(h.substring(colon + 1).trim());
        }
        String body = readBody(status, headers);
        List<String> connection = headers.get("connection");
        if (connection != null && connection.get(0).equalsIgnoreCase("close")) {
            close();
        }
        return new Reply(status, headers, body);
    }

    private String readBody(int status, Map<String, List<String>> headers) throws IOException {
        if (status == 204 || status == 304 || status / 100 == 1) {
            return "";
        }
        List<String> te = headers.get("transfer-encoding");
        if (te != null && te.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = line();
                int semi = sizeLine.indexOf(';');
                int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
                if (size == 0) {
                    for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
                        // trailers are ignored
                    }
                    return buf.toString(StandardCharsets.UTF_8);
                }
                buf.write(in.readNBytes(size));
                line();
            }
        }
        List<String> cl = headers.get("content-length");
        if (cl != null) {
            int length = Integer.parseInt(cl.get(0));
            byte[] b = in.readNBytes(length);
            if (b.length != length) {
                throw new EOFException("body shorter than Content-Length");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
        // neither: the body runs to the end of the connection
        byte[] rest = in.readAllBytes();
        close();
        return new String(rest, StandardCharsets.UTF_8);
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) c);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken connection: nothing left to do
            }
        }
        socket = null;
        in = null;
        out = null;
    }
}
