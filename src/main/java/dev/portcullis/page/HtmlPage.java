package dev.portcullis.page;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one renderer of the pages that JAX-RS endpoints, filters and servlets answer outside Faces: the card layout of
 * login.xhtml and consent.xhtml ({@code /css/portcullis.css}, brand line, heading) around {@link Element} blocks.
 * Every text and attribute value passes through {@link #escape}, so no caller writes markup by hand.
 */
public final class HtmlPage {

    private static final String TEXT_HTML = "text/html;charset=UTF-8";

    private final String title;
    private final List<Element> blocks = new ArrayList<>();
    private String lang = "en";
    private String brand = "Portcullis";
    private String cardClass = "card";
    private String id;

    private HtmlPage(String title) {
        this.title = title;
    }

    /** A page whose heading and document title is {@code title}. */
    public static HtmlPage titled(String title) {
        return new HtmlPage(title);
    }

    /** A page for a failure: the heading and the {@code role="alert"} paragraph with id {@code error-message}. */
    public static HtmlPage error(String title, String message) {
        return titled(title).add(element("p").cls("error").id("error-message").attr("role", "alert").text(message));
    }

    public HtmlPage lang(String language) {
        this.lang = language;
        return this;
    }

    /** The id of the card, which tests and scripts look for. */
    public HtmlPage id(String cardId) {
        this.id = cardId;
        return this;
    }

    /** The brand line above the heading (default "Portcullis"). */
    public HtmlPage brand(String brandLine) {
        this.brand = brandLine;
        return this;
    }

    /** A wider card, for pages showing tokens and JSON. */
    public HtmlPage wide() {
        this.cardClass = "card wide";
        return this;
    }

    public HtmlPage add(Element... more) {
        blocks.addAll(List.of(more));
        return this;
    }

    public HtmlPage add(List<Element> more) {
        blocks.addAll(more);
        return this;
    }

    /** A {@code <p class="lead">} paragraph. */
    public HtmlPage lead(String text) {
        return add(element("p").cls("lead").text(text));
    }

    public String html() {
        Element main = element("main").cls(cardClass);
        if (id != null) {
            main.id(id);
        }
        main.add(element("p").cls("brand").text(brand), element("h1").text(title));
        blocks.forEach(main::add);
        StringBuilder out = new StringBuilder("<!DOCTYPE html>\n");
        element("html").attr("lang", lang)
                .add(element("head")
                        .add(element("meta").attr("charset", "utf-8"))
                        .add(element("meta").attr("name", "viewport")
                                .attr("content", "width=device-width, initial-scale=1"))
                        .add(element("title").text(title + " · Portcullis"))
                        .add(element("link").attr("rel", "stylesheet").attr("href", "/css/portcullis.css")))
                .add(element("body").add(main))
                .render(out);
        return out.append('\n').toString();
    }

    /** The page as a JAX-RS answer: HTML, never cached (pages may carry a CSRF token or a pending request). */
    public Response.ResponseBuilder response(int status) {
        return Response.status(status).type(TEXT_HTML).header("Cache-Control", "no-store").entity(html());
    }

    /** The page written straight to a servlet response, for filters and error servlets. */
    public void write(HttpServletResponse res, int status) throws IOException {
        res.setStatus(status);
        res.setContentType(TEXT_HTML);
        res.setHeader("Cache-Control", "no-store");
        res.getOutputStream().write(html().getBytes(StandardCharsets.UTF_8));
    }

    public static Element element(String name) {
        return new Element(name);
    }

    /** A hidden form field. */
    public static Element hidden(String name, String value) {
        return element("input").attr("type", "hidden").attr("name", name).attr("value", value);
    }

    /** The row of buttons and button-styled links under a form. */
    public static Element actions(Element... buttons) {
        return element("div").cls("actions").add(buttons);
    }

    /** The one HTML escape: text and double-quoted attribute values alike. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** An HTML element: a fixed name, escaped attribute values, and escaped text or child elements in order. */
    public static final class Element {

        private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");
        private static final List<String> VOID = List.of("input", "meta", "link", "br");

        private final String name;
        private final Map<String, String> attributes = new LinkedHashMap<>();
        private final List<Object> content = new ArrayList<>();

        private Element(String name) {
            this.name = checkedName(name);
        }

        public Element attr(String attribute, String value) {
            attributes.put(checkedName(attribute), value == null ? "" : value);
            return this;
        }

        public Element id(String value) {
            return attr("id", value);
        }

        public Element cls(String value) {
            return attr("class", value);
        }

        /** Appends text (null counts as empty). */
        public Element text(String text) {
            content.add(text == null ? "" : text);
            return this;
        }

        public Element add(Element... children) {
            content.addAll(List.of(children));
            return this;
        }

        void render(StringBuilder out) {
            out.append('<').append(name);
            attributes.forEach((k, v) -> out.append(' ').append(k).append("=\"").append(escape(v)).append('"'));
            out.append('>');
            if (VOID.contains(name)) {
                return;
            }
            for (Object c : content) {
                if (c instanceof Element e) {
                    e.render(out);
                } else {
                    out.append(escape((String) c));
                }
            }
            out.append("</").append(name).append('>');
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            render(out);
            return out.toString();
        }

        /** Element and attribute names are written by this code, never taken from input; refuse anything else. */
        private static String checkedName(String name) {
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("not an HTML name: " + name);
            }
            return name;
        }
    }
}
