package dev.portcullis.app;

import dev.portcullis.config.ConfigurationImportSettings;
import dev.portcullis.config.HttpSettings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses request bodies over {@code portcullis.http.max-body-bytes} with 413 before anything parses them: by
 * Content-Length up front, and by counting for chunked bodies (the stream then fails with
 * {@link BodyTooLargeException}, which the error mappers turn into 413). The pages (Faces) read their forms through
 * the container's parameter parser, which reads the body itself, past any stream wrapper, with its own limit: a
 * chunked post to a page is read here up to the limit and answered 413 or, within it, 411 (browsers send forms with a
 * Content-Length); a page's form is parsed here, so that a container's own limit answers 413 instead of a 500. web.xml
 * puts this filter before every filter that reads parameters.
 */
@WebFilter(filterName = "RequestBodyLimitFilter", urlPatterns = "/*", asyncSupported = true)
public class RequestBodyLimitFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    /** web.xml's name of the servlet that answers the pages. */
    private static final String PAGES = "Faces Servlet";

    @Inject
    HttpSettings httpSettings;

    @Inject
    ConfigurationImportSettings configurationSettings;

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        long max = isConfigurationDocument(req) ? configurationSettings.maxDocumentBytes()
                : httpSettings.maxBodyBytes();
        long length = req.getContentLengthLong();
        if (length > max) {
            drain(req.getInputStream(), 0, length, res);
            reject(req, res, max);
            return;
        }
        if ("POST".equals(req.getMethod()) && isPage(req)) {
            if (length < 0 && req.getHeader("Transfer-Encoding") != null) {
                refuseChunked(req, res, max);
                return;
            }
            if (isForm(req) && !parsed(req)) {
                ErrorAnswer.forStatus(413).write(req.getRequestURI(), res);
                return;
            }
        }
        chain.doFilter(length < 0 ? new Limited(req, res, max) : req, res);
    }

    /** Only the exact raw path takes the larger limit: any other spelling of it keeps the common one. */
    private static boolean isConfigurationDocument(HttpServletRequest req) {
        return "POST".equals(req.getMethod())
                && (req.getContextPath() + "/admin/config").equals(req.getRequestURI());
    }

    private static boolean isPage(HttpServletRequest req) {
        HttpServletMapping mapping = req.getHttpServletMapping();
        return mapping != null && PAGES.equals(mapping.getServletName());
    }

    /** A chunked body to a page: 413 over the limit, else 411; read first, so the client hears the answer. */
    private static void refuseChunked(HttpServletRequest req, HttpServletResponse res, long max) throws IOException {
        ServletInputStream in = req.getInputStream();
        try {
            readAtMost(in, max);
        } catch (BodyTooLargeException e) {
            drain(in, max + 1, -1, res);
            reject(req, res, max);
            return;
        } catch (IOException e) {
            // a broken or cut-short chunked body: the client gets a 400 if it still listens
            res.setHeader("Connection", "close");
            ErrorAnswer.problem(400, "The request body could not be read").write(req.getRequestURI(), res);
            return;
        }
        ErrorAnswer.problem(411, "A form post to a page needs a Content-Length").write(req.getRequestURI(), res);
    }

    /**
     * Has the container parse the form now: within our limit, a container whose own is lower (Grizzly: 2 MB, Undertow:
     * 10 MB or 1,000 parameters) fails with an exception, which later, in Faces, would be a 500.
     */
    private static boolean parsed(HttpServletRequest req) {
        try {
            req.getParameterMap();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean isForm(HttpServletRequest req) {
        String type = req.getContentType();
        return type != null && type.split(";", 2)[0].trim().equalsIgnoreCase("application/x-www-form-urlencoded");
    }

    /**
     * Reads and discards the rest of an oversized body ({@code length} bytes in all, -1 when unknown) before
     * answering, so the client — still sending — receives the 413 instead of a reset connection. Beyond
     * {@link #DRAIN_LIMIT} the connection is simply closed after the answer.
     */
    private static void drain(ServletInputStream in, long read, long length, HttpServletResponse res) {
        if (length > DRAIN_LIMIT) {
            res.setHeader("Connection", "close");
            return;
        }
        byte[] buf = new byte[16_384];
        long total = read;
        try {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                total += n;
                if (total > DRAIN_LIMIT) {
                    res.setHeader("Connection", "close");
                    return;
                }
            }
        } catch (IOException e) {
            res.setHeader("Connection", "close");
        }
    }

    /**
     * Largest oversized body still read (and discarded) so that its 413 reaches the client: above the largest limit
     * an operator can set (10 MiB), so that any body just over it gets its answer.
     */
    static final long DRAIN_LIMIT = 16L * 1024 * 1024;

    static void reject(HttpServletRequest req, HttpServletResponse res, long max) throws IOException {
        String description = "Request body larger than " + max + " bytes";
        new ErrorAnswer(413, "invalid_request", description, "Request too large", description + ".")
                .write(req.getRequestURI(), res);
    }

    /** Reads the whole body, if it is at most {@code max} bytes; one more fails with {@link BodyTooLargeException}. */
    private static void readAtMost(ServletInputStream in, long max) throws IOException {
        byte[] buf = new byte[16_384];
        long total = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            total += n;
            if (total > max) {
                throw new BodyTooLargeException(max);
            }
        }
    }

    /** Thrown by the counting stream; the exception mappers answer 413. */
    public static class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(long max) {
            super("Request body larger than " + max + " bytes");
        }
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final HttpServletResponse res;
        private final long max;
        private ServletInputStream stream;

        Limited(HttpServletRequest req, HttpServletResponse res, long max) {
            super(req);
            this.res = res;
            this.max = max;
        }

        /** The rest of the body is drained first: Undertow (WildFly) would otherwise reset the connection. */
        private BodyTooLargeException tooLarge(ServletInputStream in, long count) {
            drain(in, count, -1, res);
            return new BodyTooLargeException(max);
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
                            throw tooLarge(in, count);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = in.read(buf, off, len);
                        if (n > 0 && (count += n) > max) {
                            throw tooLarge(in, count);
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
