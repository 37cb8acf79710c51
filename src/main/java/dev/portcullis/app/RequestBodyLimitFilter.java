package dev.portcullis.app;

import dev.portcullis.config.PortcullisConfig;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses request bodies over {@code portcullis.http.max-body-bytes} with 413 before anything parses them: by
 * Content-Length up front, and by counting for chunked bodies (the stream then fails with
 * {@link BodyTooLargeException}, which the error mappers turn into 413).
 */
@WebFilter(filterName = "RequestBodyLimitFilter", urlPatterns = "/*", asyncSupported = true)
public class RequestBodyLimitFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    PortcullisConfig config;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        long max = config.maxBodyBytes();
        if (req.getContentLengthLong() > max) {
            drain(req, res);
            reject(req, res, max);
            return;
        }
        chain.doFilter(req.getContentLengthLong() < 0 ? new Limited(req, max) : req, res);
    }

    /**
     * Reads and discards a moderately oversized body before answering, so the client — still sending — receives the
     * 413 instead of a reset connection. Beyond {@link #DRAIN_LIMIT} the connection is simply closed after the answer.
     */
    private static void drain(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (req.getContentLengthLong() > DRAIN_LIMIT) {
            res.setHeader("Connection", "close");
            return;
        }
        try (var in = req.getInputStream()) {
            byte[] buf = new byte[16_384];
            while (in.read(buf) >= 0) {
                // discard
            }
        } catch (IOException e) {
            res.setHeader("Connection", "close");
        }
    }

    /** Largest oversized body still read (and discarded) so that its 413 reaches the client. */
    static final long DRAIN_LIMIT = 2L * 1024 * 1024;

    static void reject(HttpServletRequest req, HttpServletResponse res, long max) throws IOException {
        String description = "Request body larger than " + max + " bytes";
        new ErrorAnswer(413, "invalid_request", description, "Request too large", description + ".")
                .write(req.getRequestURI(), res);
    }

    /** Thrown by the counting stream; the exception mappers answer 413. */
    public static class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(long max) {
            super("Request body larger than " + max + " bytes");
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final long max;
        private ServletInputStream stream;

        Limited(HttpServletRequest req, long max) {
            super(req);
            this.max = max;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                ServletInputStream in = super.getInputStream();
                stream = new ServletInputStream() {
                    private long count;

                    @Override
                    public int read() throws IOException {
                        int b = in.read();
                        if (b >= 0 && ++count > max) {
                            throw new BodyTooLargeException(max);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0 && (count += n) > max) {
                            throw new BodyTooLargeException(max);
                        }
                        return n;
                    }

                    @Override
                    public boolean isFinished() {
                        return in.isFinished();
                    }

                    @Override
                    public boolean isReady() {
                        return in.isReady();
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        in.setReadListener(listener);
                    }
                };
            }
            return stream;
        }
    }
}
