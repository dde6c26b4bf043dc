package dev.logrouter.core.parse.xml;

import com.fasterxml.aalto.AsyncByteArrayFeeder;
import com.fasterxml.aalto.AsyncXMLStreamReader;
import com.fasterxml.aalto.async.AsyncByteArrayScanner;
import com.fasterxml.aalto.async.AsyncStreamReaderImpl;
import com.fasterxml.aalto.in.PName;
import com.fasterxml.aalto.in.ReaderConfig;
import com.fasterxml.aalto.in.XmlScanner;
import com.fasterxml.aalto.stax.InputFactoryImpl;
import com.fasterxml.aalto.stax.StreamReaderImpl;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Glob;
import dev.logrouter.core.util.Utf8Decoder;
import org.codehaus.stax2.XMLInputFactory2;
import org.codehaus.stax2.XMLStreamReader2;
import org.codehaus.stax2.typed.TypedValueDecoder;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code xml} parser: reads the input with Aalto's non-blocking StAX reader (no DTD, no entities beyond the
 * five predefined ones and character references) and writes, like syslog-ng's {@code xml()}, the text of each
 * element to {@code <prefix><a>.<b>} and each attribute to {@code <prefix><a>.<b>._<attr>}. Text chunks of one
 * element (text around child elements, repeated elements of the same path) are concatenated in document
 * order; elements without text write nothing. Several top-level elements are accepted (as GLib's markup
 * parser does); text outside any element, a {@code DOCTYPE}, an undeclared entity, a nesting deeper than
 * {@code max-depth} or any syntax error fails the parse.
 *
 * <p>How: one reader per instance reads an endless document whose synthetic root element ({@code <_>}) is
 * opened when the reader is created and never closed. Each message is fed as the next part of the root's
 * content, followed by the end mark {@code <!--_-->}; the message parsed when the reader has consumed
 * everything, the last event was that mark at the root level and no element of the message is left open.
 * Input ending inside a tag, a comment, a CDATA section or an element swallows or follows the mark and so
 * fails. After any failure (the reader's state is then undefined) and after {@value #RENEW_AFTER_BYTES} bytes
 * of input (which bounds its symbol table of element and attribute names) the reader is replaced. A leading
 * XML declaration ({@code <?xml ...?>}) is skipped before feeding, as it cannot stand inside an element.
 *
 * <p>Security: the DOCTYPE cannot appear inside an element, so neither external entities (XXE) nor entity
 * expansion (billion laughs) are possible; the nesting is bounded by {@code max-depth} (counted here, also
 * inside excluded elements) and the number of attributes per element by {@value #MAX_ATTRIBUTES}.
 *
 * <p>Allocation: text is read as char ranges and attribute values through a typed decoder over Aalto's value
 * buffer, element and attribute names are canonical Strings of the reader's symbol table. What remains per
 * message is Aalto's per-element scope object (24 bytes per element), and, only for attribute values whose
 * ends are whitespace, one String per element with attributes.
 *
 * <p>Threads: one instance per parse worker, called by that worker only.
 */
public final class XmlParser extends FieldParser {

    /** Input fed to one reader before it is replaced by a fresh one (and its symbol table with it). */
    static final long RENEW_AFTER_BYTES = 1L << 20;
    /** Attributes per element, Woodstox's default limit (a defence against hash-collision attacks). */
    static final int MAX_ATTRIBUTES = 1000;

    private static final byte[] OPEN_ROOT = {'<', '_', '>'};
    private static final byte[] END_MARK = {'<', '!', '-', '-', '_', '-', '-', '>'};
    private static final byte[] ATTR = {'.', '_'};
    private static final byte[] XMLNS = {'.', '_', 'x', 'm', 'l', 'n', 's'};

    private final InputFactoryImpl factory;
    private final int maxDepth;
    private final int[] nameMarks;
    private final boolean strip;
    private final Glob[] excludeTags;
    private final boolean dropInvalid;
    private final ValueRange range = new ValueRange();
    /** Per attribute of the current element: where its value ends in Aalto's value buffer. */
    private int[] valueEnds = new int[16];

    private AsyncXMLStreamReader<AsyncByteArrayFeeder> reader;
    /** The reader's scanner, whose accessors give attribute names as they were written ({@code a:b}). */
    private XmlScanner scanner;
    private long fedToReader;
    /** The text since the last tag (text, CDATA and references of one chunk, as a coalescing reader gives it). */
    private char[] text = new char[256];
    private int textLength;
    /** Parse state of the current message. */
    private int depth;
    private int skipping;
    private boolean markSeen;

    XmlParser(XmlParserConfig cfg, ParseContext ctx) {
        super(normalisePrefix(cfg.prefix()), cfg.template(), ctx);
        this.maxDepth = cfg.maxDepth();
        this.nameMarks = new int[maxDepth + 1];
        this.strip = cfg.stripWhitespaces();
        List<String> ex = cfg.excludeTags();
        this.excludeTags = ex.stream().map(Glob::new).toArray(Glob[]::new);
        this.dropInvalid = cfg.dropInvalid();
        this.factory = newFactory();
    }

    /** The factory: Aalto without DTD support, namespaces or name interning; created once per instance. */
    static InputFactoryImpl newFactory() {
        InputFactoryImpl f = new InputFactoryImpl();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false); // coalesced here, across feeds
        f.setProperty(XMLInputFactory2.P_INTERN_NAMES, false);
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("xml parser: external resources are disabled (" + systemId + ")");
        });
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
        if (!ok) {
            reader = null; // mid-document: the next message needs a fresh reader (dropped unclosed, see renew)
            if (dropInvalid) {
                event.addFlag(LogEvent.FLAG_DISCARD);
            }
        }
        return ok;
    }

    private boolean scan(byte[] in, int off, int len) throws XMLStreamException {
        int start = skipDeclaration(in, off, off + len);
        if (start < 0 || !Utf8Decoder.isValid(in, start, off + len)) {
            return false;
        }
        if (reader == null || fedToReader > RENEW_AFTER_BYTES) {
            renewReader();
        }
        depth = 0;
        skipping = 0;
        markSeen = false;
        textLength = 0;
        nameMarks[0] = out.nameMark();
        AsyncByteArrayFeeder feeder = reader.getInputFeeder();
        int end = off + len;
        fedToReader += end - start + END_MARK.length;
        if (start < end) {
            feeder.feedInput(in, start, end - start);
            if (!readFed()) {
                return false;
            }
        }
        markSeen = false; // only the mark itself may set it now
        feeder.feedInput(END_MARK, 0, END_MARK.length);
        return readFed() && markSeen && depth == 0 && skipping == 0;
    }

    /**
     * A reader whose root element is open. The old one is dropped without {@code close()}, which would merge
     * its symbol table into the factory's and so let the names of all messages accumulate there.
     */
    private void renewReader() throws XMLStreamException {
        reader = null;
        ReaderConfig cfg = factory.getNonSharedConfig(null, null, null, false, false);
        cfg.setActualEncoding("UTF-8");
        AsyncXMLStreamReader<AsyncByteArrayFeeder> r = new AsyncStreamReaderImpl<>(new PrefixTolerantScanner(cfg));
        r.getInputFeeder().feedInput(OPEN_ROOT, 0, OPEN_ROOT.length);
        int ev;
        do {
            ev = r.next();
        } while (ev != XMLStreamConstants.START_ELEMENT && ev != AsyncXMLStreamReader.EVENT_INCOMPLETE);
        if (ev != XMLStreamConstants.START_ELEMENT || r.next() != AsyncXMLStreamReader.EVENT_INCOMPLETE) {
            throw new IllegalStateException("xml parser: the synthetic root element did not open");
        }
        reader = r;
        scanner = ((StreamReaderImpl) r).getScanner();
        fedToReader = 0;
    }

    /** Handles the events of the input fed last until the reader needs more; false on a failure. */
    private boolean readFed() throws XMLStreamException {
        AsyncXMLStreamReader<AsyncByteArrayFeeder> r = reader;
        while (true) {
            int ev = r.next();
            switch (ev) {
                case AsyncXMLStreamReader.EVENT_INCOMPLETE -> {
                    return true;
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    markSeen = false;
                    if (skipping == 0) {
                        collectText(r);
                    } else {
                        r.getTextLength(); // Aalto reads text lazily: skipped unread, it would go unchecked
                    }
                }
                case XMLStreamConstants.START_ELEMENT -> {
                    markSeen = false;
                    if (!flushText() || !startElement(r)) {
                        return false;
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    markSeen = false;
                    if (!flushText()) {
                        return false;
                    }
                    if (skipping > 0) {
                        skipping--;
                    } else if (depth > 0) {
                        depth--;
                        out.truncateName(nameMarks[depth]);
                    } else {
                        return false; // the synthetic root closed: an end tag without a start
                    }
                }
                case XMLStreamConstants.COMMENT -> {
                    if (!flushText()) {
                        return false;
                    }
                    markSeen = isMark(r) && depth == 0 && skipping == 0; // reading the text checks it
                }
                case XMLStreamConstants.PROCESSING_INSTRUCTION -> {
                    markSeen = false;
                    r.getPIData(); // read, and so checked (one String: instructions are rare in logs)
                    if (!flushText()) {
                        return false;
                    }
                }
                default -> {
                    // DTD, entity reference or declaration, notation, end of document: not allowed here
                    return false;
                }
            }
        }
    }

    private boolean startElement(XMLStreamReader2 r) throws XMLStreamException {
        if (depth + skipping == maxDepth) {
            return false;
        }
        if (skipping > 0) {
            skipping++;
            return true;
        }
        String element = r.getPrefixedName();
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
            return true;
        }
        depth++;
        nameMarks[depth] = name.length();
        return writeAttributes(r);
    }

    private boolean writeAttributes(XMLStreamReader2 r) throws XMLStreamException {
        int ns = r.getNamespaceCount();
        int n = r.getAttributeCount();
        if (n + ns > MAX_ATTRIBUTES) {
            return false;
        }
        if (ns > 0) {
            writeNamespaceDeclarations(r, ns);
        }
        if (n == 0) {
            return true;
        }
        char[] values = attributeRanges(r, n);
        ByteBuilder name = out.name();
        int mark = name.length();
        for (int i = 0; i < n; i++) {
            String attr = scanner.getAttrPrefixedName(i);
            name.append(ATTR);
            name.appendUtf8(attr, 0, attr.length());
            if (values != null) {
                int from = i == 0 ? 0 : valueEnds[i - 1];
                out.setUtf8(values, from, valueEnds[i] - from);
            } else {
                String value = r.getAttributeValue(i);
                out.setUtf8(value, 0, value.length());
            }
            name.setLength(mark);
        }
        return true;
    }

    /**
     * Aalto, namespace-aware only, takes {@code xmlns} and {@code xmlns:p} out of the attributes; written as the
     * attributes they are to syslog-ng (before the element's other attributes).
     */
    private void writeNamespaceDeclarations(XMLStreamReader2 r, int ns) {
        ByteBuilder name = out.name();
        int mark = name.length();
        for (int i = 0; i < ns; i++) {
            name.append(XMLNS);
            String prefix = r.getNamespacePrefix(i);
            if (prefix != null && !prefix.isEmpty()) {
                name.append((byte) ':');
                name.appendUtf8(prefix, 0, prefix.length());
            }
            String uri = r.getNamespaceURI(i);
            if (uri == null) {
                uri = "";
            }
            out.setUtf8(uri, 0, uri.length());
            name.setLength(mark);
        }
    }

    /**
     * Aalto's buffer holding the values of the current element's attributes back to back, with
     * {@link #valueEnds} set, or null when they cannot be located exactly. Its typed decoder sees each value
     * without leading and trailing whitespace; the ranges are exact when each value starts where the one
     * before ended and the last one is not followed by whitespace, which then proves nothing was trimmed.
     */
    private char[] attributeRanges(XMLStreamReader2 r, int n) throws XMLStreamException {
        if (valueEnds.length < n) {
            valueEnds = new int[Math.max(n, valueEnds.length * 2)];
        }
        ValueRange v = range;
        char[] buf = null;
        int end = 0;
        for (int i = 0; i < n; i++) {
            v.reset();
            r.getAttributeAs(i, v);
            if (v.buffer == null || v.start != end || (buf != null && v.buffer != buf)) {
                return null; // empty, all whitespace or leading whitespace (or the previous one trailing)
            }
            buf = v.buffer;
            end = v.end;
            valueEnds[i] = end;
        }
        return end == buf.length || !isXmlSpace(buf[end]) ? buf : null;
    }

    /** Adds a text event to the current chunk. */
    private void collectText(XMLStreamReader2 r) {
        int n = r.getTextLength();
        if (textLength + n > text.length) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textLength + n));
        }
        System.arraycopy(r.getTextCharacters(), r.getTextStart(), text, textLength, n);
        textLength += n;
    }

    /** Writes the chunk collected since the last tag; false when it is text outside every element. */
    private boolean flushText() {
        int to = textLength;
        if (to == 0) {
            return true;
        }
        textLength = 0;
        char[] c = text;
        int from = 0;
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

    private static boolean isMark(XMLStreamReader2 r) {
        return r.getTextLength() == 1 && r.getTextCharacters()[r.getTextStart()] == '_';
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

    /** What Aalto trims off a value before decoding it (any char up to the space). */
    private static boolean isXmlSpace(char ch) {
        return ch <= ' ';
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

    /**
     * A typed-value decoder that decodes nothing: it remembers which range of Aalto's attribute value buffer
     * the value (without leading and trailing whitespace) occupies, so that it can be copied without a String.
     */
    private static final class ValueRange extends TypedValueDecoder {
        char[] buffer;
        int start;
        int end;

        void reset() {
            buffer = null;
        }

        @Override
        public void decode(String input) {
            throw new IllegalStateException("xml parser: Aalto decoded an attribute from a String");
        }

        @Override
        public void decode(char[] buf, int from, int to) {
            buffer = buf;
            start = from;
            end = to;
        }

        @Override
        public void handleEmptyValue() {
            buffer = null; // empty or all whitespace: the String accessor tells which
        }
    }

    /**
     * Aalto's scanner without its namespace checks: Aalto has no namespace-unaware mode, but syslog-ng (GLib's
     * markup parser) knows no namespaces, so {@code <p:a>} with {@code p} undeclared,
     * {@code a:b:c} and declarations XML Namespaces forbids are plain names and attributes here.
     */
    private static final class PrefixTolerantScanner extends AsyncByteArrayScanner {
        PrefixTolerantScanner(ReaderConfig cfg) {
            super(cfg);
        }

        @Override
        protected void reportUnboundPrefix(PName name, boolean isAttr) {
            // a prefixed name is just a name
        }

        @Override
        protected void reportMultipleColonsInName() {
            // a name with several colons is just a name
        }

        @Override
        protected void reportIllegalNsDecl(String prefix) {
            // xmlns:p="" is just an attribute
        }

        @Override
        protected void reportIllegalNsDecl(String prefix, String uri) {
            // binding xml or xmlns is just an attribute
        }
    }
}
