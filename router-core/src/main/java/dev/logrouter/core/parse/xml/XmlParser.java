package dev.logrouter.core.parse.xml;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Glob;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.InputStream;
import java.util.List;

/**
 * The {@code xml} parser: reads the input with Woodstox (StAX, no DTD, no entities beyond the five predefined
 * ones and character references, coalesced text) and writes, like syslog-ng's {@code xml()}, the text of each
 * element to {@code <prefix><a>.<b>} and each attribute to {@code <prefix><a>.<b>._<attr>}. Text chunks of one
 * element (text around child elements, repeated elements of the same path) are concatenated in document
 * order; elements without text write nothing. Several top-level elements are accepted (as GLib's markup
 * parser does); text outside any element, a {@code DOCTYPE}, an undeclared entity, a nesting deeper than
 * {@code max-depth} or any syntax error fails the parse.
 *
 * <p>Security: DTDs are not supported at all ({@code SUPPORT_DTD=false}, and a {@code DOCTYPE} cannot appear
 * because the document is parsed inside a synthetic root element), so neither external entities (XXE) nor
 * entity expansion (billion laughs) are possible; the input is bounded by the message size and the nesting by
 * {@code max-depth}.
 *
 * <p>Allocation: the factory, the input stream and every buffer of this class are reused; Woodstox allocates
 * its reader per document (about 2.5 KB, measured) and one String per attribute value.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class XmlParser extends FieldParser {

    private static final byte[] OPEN_ROOT = {'<', '_', '>'};
    private static final byte[] CLOSE_ROOT = {'<', '/', '_', '>'};
    private static final byte[] ATTR = {'.', '_'};

    private final XMLInputFactory factory;
    private final ReusableInputStream stream = new ReusableInputStream();
    private final ByteBuilder document = new ByteBuilder(512);
    private final int maxDepth;
    private final int[] nameMarks;
    private final boolean strip;
    private final Glob[] excludeTags;
    private final boolean dropInvalid;

    XmlParser(XmlParserConfig cfg, ParseContext ctx) {
        super(normalisePrefix(cfg.prefix()), cfg.template(), ctx);
        this.maxDepth = cfg.maxDepth();
        this.nameMarks = new int[maxDepth + 1];
        this.strip = cfg.stripWhitespaces();
        List<String> ex = cfg.excludeTags();
        this.excludeTags = ex.stream().map(Glob::new).toArray(Glob[]::new);
        this.dropInvalid = cfg.dropInvalid();
        this.factory = newFactory(maxDepth);
    }

    /** The factory: Woodstox configured without DTD, entities or namespaces; created once per instance. */
    static XMLInputFactory newFactory(int maxDepth) {
        WstxInputFactory f = new WstxInputFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("xml parser: external resources are disabled (" + systemId + ")");
        });
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, maxDepth + 1);
        f.setProperty(WstxInputProperties.P_MAX_ENTITY_DEPTH, 1);
        return f;
    }

    /** A non-empty prefix ends with a dot, so that element names follow it as a path segment. */
    static String normalisePrefix(String prefix) {
        return prefix.isEmpty() || prefix.endsWith(".") ? prefix : prefix + ".";
    }

    @Override
    protected boolean parse(byte[] in, int off, int len, LogEvent event) {
        boolean ok;
        try {
            ok = scan(in, off, len);
        } catch (XMLStreamException | RuntimeException e) {
            ok = false;
        }
        if (!ok && dropInvalid) {
            event.addFlag(LogEvent.FLAG_DISCARD);
        }
        return ok;
    }

    private boolean scan(byte[] in, int off, int len) throws XMLStreamException {
        int start = skipDeclaration(in, off, off + len);
        if (start < 0) {
            return false;
        }
        ByteBuilder doc = document;
        doc.reset();
        doc.append(OPEN_ROOT);
        doc.append(in, start, off + len - start);
        doc.append(CLOSE_ROOT);
        stream.set(doc.array(), doc.length());
        XMLStreamReader r = factory.createXMLStreamReader(stream);
        try {
            return walk(r);
        } finally {
            r.close();
        }
    }

    /** Reads the events under the synthetic root; depth 0 is the root, 1 a top-level element of the input. */
    private boolean walk(XMLStreamReader r) throws XMLStreamException {
        int depth = -1;
        int skipping = 0;
        nameMarks[0] = out.nameMark();
        while (r.hasNext()) {
            switch (r.next()) {
                case XMLStreamConstants.START_ELEMENT -> {
                    if (depth < 0) {
                        depth = 0;
                    } else if (skipping > 0) {
                        skipping++;
                    } else {
                        String element = r.getLocalName();
                        ByteBuilder name = out.name();
                        int mark = name.length();
                        if (depth > 0) {
                            name.append((byte) '.');
                        }
                        int start = name.length();
                        name.appendUtf8(element, 0, element.length());
                        if (isExcluded(name.array(), start, name.length() - start)) {
                            name.setLength(mark);
                            skipping = 1;
                        } else if (depth == maxDepth) {
                            name.setLength(mark);
                            return false;
                        } else {
                            depth++;
                            nameMarks[depth] = name.length();
                            writeAttributes(r);
                        }
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    if (skipping > 0) {
                        skipping--;
                    } else if (depth > 0) {
                        depth--;
                        out.truncateName(nameMarks[depth]);
                    }
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (skipping == 0 && !text(r, depth)) {
                        return false;
                    }
                }
                case XMLStreamConstants.DTD, XMLStreamConstants.ENTITY_REFERENCE, XMLStreamConstants.ENTITY_DECLARATION,
                        XMLStreamConstants.NOTATION_DECLARATION -> {
                    return false;
                }
                default -> {
                    // comments, processing instructions, end of document: nothing to write
                }
            }
        }
        return true;
    }

    private void writeAttributes(XMLStreamReader r) {
        int n = r.getAttributeCount();
        if (n == 0) {
            return;
        }
        ByteBuilder name = out.name();
        int mark = name.length();
        for (int i = 0; i < n; i++) {
            String attr = r.getAttributeLocalName(i);
            name.append(ATTR);
            name.appendUtf8(attr, 0, attr.length());
            String value = r.getAttributeValue(i);
            out.setUtf8(value, 0, value.length());
            name.setLength(mark);
        }
    }

    /** One coalesced text chunk at {@code depth}; false when it is text outside every element. */
    private boolean text(XMLStreamReader r, int depth) {
        char[] c = r.getTextCharacters();
        int from = r.getTextStart();
        int to = from + r.getTextLength();
        if (depth <= 0 || strip) {
            while (from < to && isSpace(c[from])) {
                from++;
            }
            while (to > from && isSpace(c[to - 1])) {
                to--;
            }
            if (from == to) {
                return true;
            }
            if (depth <= 0) {
                return false;
            }
        }
        if (from == to) {
            return true;
        }
        appendText(c, from, to - from);
        return true;
    }

    /** Appends text to the value of the current name (syslog-ng concatenates the chunks of one path). */
    private void appendText(char[] c, int off, int n) {
        FieldTable t = out.table();
        ByteBuilder name = out.name();
        int i = t.indexOf(name.array(), 0, name.length());
        if (i < 0) {
            out.setUtf8(c, off, n);
            return;
        }
        ByteBuilder v = out.scratchValue();
        v.append(t.data(), t.valueOffset(i), t.valueLength(i));
        v.appendUtf8(c, off, n);
        out.set(v.array(), 0, v.length());
    }

    /** True when the element name, {@code len} UTF-8 bytes of {@code a} at {@code off}, matches an exclude glob. */
    private boolean isExcluded(byte[] a, int off, int len) {
        for (Glob p : excludeTags) {
            if (p.matches(a, off, len)) {
                return true;
            }
        }
        return false;
    }

    /** C's isspace() in the C locale, as GLib's g_strstrip uses. */
    private static boolean isSpace(char ch) {
        return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == 0x0B;
    }

    /**
     * Where the document starts after an optional XML declaration ({@code <?xml ...?>}, which cannot stay
     * inside the synthetic root); -1 when the declaration is not closed. The declared encoding is ignored:
     * the input is read as UTF-8.
     */
    private static int skipDeclaration(byte[] in, int off, int end) {
        int i = off;
        while (i < end && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r')) {
            i++;
        }
        if (end - i < 6 || in[i] != '<' || in[i + 1] != '?' || in[i + 2] != 'x' || in[i + 3] != 'm'
                || in[i + 4] != 'l' || !(in[i + 5] == ' ' || in[i + 5] == '\t' || in[i + 5] == '\r'
                || in[i + 5] == '\n' || in[i + 5] == '?')) {
            return off;
        }
        for (int j = i + 5; j + 1 < end; j++) {
            if (in[j] == '?' && in[j + 1] == '>') {
                return j + 2;
            }
        }
        return -1;
    }

    /** An InputStream over a reused byte array, reset per document instead of allocated. */
    private static final class ReusableInputStream extends InputStream {
        private byte[] buf;
        private int pos;
        private int end;

        void set(byte[] b, int len) {
            buf = b;
            pos = 0;
            end = len;
        }

        @Override
        public int read() {
            return pos < end ? buf[pos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] dst, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (pos >= end) {
                return -1;
            }
            int n = Math.min(len, end - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() {
            return end - pos;
        }
    }
}
