package dev.logrouter.patterndb.ruleset;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Loads PatternDB ruleset files ({@code <patterndb>} XML, spec section 2) into the model
 * ({@link PatternDbFile}), accepting and rejecting exactly what syslog-ng 3.38's loader does; the rules
 * are applied by {@link PdbDocumentHandler}.
 *
 * <p>XML: the JDK's StAX parser with DTDs and external entities disabled, so entity expansion attacks
 * cannot happen; a {@code DOCTYPE} is rejected. The five predefined entities, character references and
 * CDATA sections are decoded, comments and processing instructions are skipped (but, as in the reference,
 * they split a text run in two). Files are read as UTF-8 whatever their XML declaration says, like the
 * reference (GLib's markup parser only reads UTF-8); invalid UTF-8 rejects the file. Deviations from
 * the reference's parser: it drops the content of a CDATA section (we keep it as text), it ignores a
 * {@code DOCTYPE} (we reject it), and it keeps tabs and newlines inside attribute values (XML attribute
 * normalization turns them into spaces here).
 *
 * <p>Errors: {@link PdbLoadException} with {@code FILE:LINE:COLUMN: what is wrong; what to do}. LINE and
 * COLUMN follow syslog-ng's numbering (GLib {@code GMarkup}: columns count UTF-8 bytes, on every line but
 * the first the preceding newline is column 1, an element is reported just after its start tag, a text
 * where it ends), so the positions equal the reference's for the same file. Pattern locations
 * ({@link PatternText}) use the same numbering. Non-fatal findings (a missing {@code version}) go to
 * {@link PatternDbFile#warnings()}.
 *
 * <p>Versions: {@code version} below 2 is rejected as too old, above 5 as too new (as 3.38; v6 needs
 * syslog-ng 4). The reference's {@code pdbtool merge} converts v1 files ({@code <program>} elements) to v4;
 * we do not implement that conversion: a v1 file is rejected with a message saying to convert it.
 *
 * <p>Not checked here, because they need the built trees or compilers: joining rulesets by program name
 * (spec 3), pattern syntax and parser parameters, template and filter compilation. The tree builder
 * ({@code PatternDb.build}) does those on the loaded files, in order.
 *
 * <p>Threads: stateless; any thread may call it (each call uses its own parser).
 */
public final class PdbLoader {

    private PdbLoader() {
    }

    /** Loads one file; the source name in messages is the path as given. */
    public static PatternDbFile load(Path file) throws PdbLoadException, IOException {
        return load(Files.readAllBytes(file), file.toString());
    }

    /**
     * Loads one file from a stream (read to its end, not closed). {@code sourceName} names the file in
     * messages. A read failure is thrown as {@link UncheckedIOException}.
     */
    public static PatternDbFile load(InputStream in, String sourceName) throws PdbLoadException {
        byte[] bytes;
        try {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + sourceName, e);
        }
        return load(bytes, sourceName);
    }

    /**
     * Loads several files or directories in order, as {@code pdbtool merge -r -s} would list them (see
     * {@link #expand}); the first file that fails stops the load with its error. Rulesets are not joined
     * across files here: the tree builder receives the files in this order and joins them.
     */
    public static List<PatternDbFile> loadAll(List<Path> paths) throws PdbLoadException, IOException {
        List<PatternDbFile> files = new ArrayList<>();
        for (Path file : expand(paths)) {
            files.add(load(file));
        }
        return files;
    }

    /**
     * The files {@link #loadAll} loads: a path naming a file is taken as is; a directory contributes every
     * regular {@code *.xml} and {@code *.pdb} file below it (symbolic links followed), ordered like
     * {@code pdbtool merge -r -s}: files nearer the directory first (a directory's own files before those of
     * its subdirectories), then by path, byte order. This is the order of the reference's merged balabit
     * database ({@code derived/merged/} in the conformance corpus).
     */
    public static List<Path> expand(List<Path> paths) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path path : paths) {
            if (!Files.isDirectory(path)) {
                out.add(path);
                continue;
            }
            List<Path> found;
            try (Stream<Path> walk = Files.walk(path, FileVisitOption.FOLLOW_LINKS)) {
                found = walk.filter(Files::isRegularFile).filter(PdbLoader::isRulesetName).toList();
            }
            out.addAll(found.stream()
                    .sorted(Comparator.<Path>comparingInt(p -> path.relativize(p).getNameCount())
                            .thenComparing(p -> path.relativize(p).toString().replace('\\', '/')))
                    .toList());
        }
        return out;
    }

    private static boolean isRulesetName(Path p) {
        String name = p.getFileName().toString();
        return name.endsWith(".xml") || name.endsWith(".pdb");
    }

    private static PatternDbFile load(byte[] bytes, String source) throws PdbLoadException {
        String text = decodeUtf8(bytes, source);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        SourcePositions positions = new SourcePositions(text);
        PdbDocumentHandler handler = new PdbDocumentHandler(source, positions);
        XMLStreamReader reader = null;
        try {
            reader = newFactory().createXMLStreamReader(new StringReader(text));
            run(reader, text, positions, handler, source);
        } catch (XMLStreamException e) {
            throw malformed(e, positions, source);
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // nothing is held open: the input is a string
                }
            }
        }
        return handler.result();
    }

    /** Drives the handler: elements, and one text run per gap between two pieces of markup in the root. */
    private static void run(XMLStreamReader r, String text, SourcePositions positions, PdbDocumentHandler handler,
                            String source) throws XMLStreamException, PdbLoadException {
        StringBuilder run = new StringBuilder();
        int depth = 0;
        int gapStart = 0;
        boolean afterSelfClosing = false;
        while (r.hasNext()) {
            int event = r.next();
            switch (event) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
                        run.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                case XMLStreamConstants.START_ELEMENT -> {
                    int end = endOffset(r, positions);
                    if (depth > 0) {
                        handler.text(run.toString(), markupStart(text, gapStart));
                    }
                    run.setLength(0);
                    boolean selfClosing = end >= 2 && text.charAt(end - 2) == '/' && text.charAt(end - 1) == '>';
                    int n = r.getAttributeCount();
                    String[] names = new String[n];
                    String[] values = new String[n];
                    for (int i = 0; i < n; i++) {
                        names[i] = r.getAttributeLocalName(i);
                        values[i] = r.getAttributeValue(i);
                    }
                    handler.startElement(r.getLocalName(), names, values, selfClosing ? end - 1 : end);
                    depth++;
                    gapStart = end;
                    afterSelfClosing = selfClosing;
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    int end = endOffset(r, positions);
                    if (!afterSelfClosing) {
                        handler.text(run.toString(), markupStart(text, gapStart));
                    }
                    run.setLength(0);
                    afterSelfClosing = false;
                    depth--;
                    handler.endElement(r.getLocalName(), end);
                    gapStart = end;
                }
                case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {
                    if (depth > 0) {
                        handler.text(run.toString(), markupStart(text, gapStart));
                    }
                    run.setLength(0);
                    gapStart = endOffset(r, positions);
                }
                case XMLStreamConstants.DTD -> {
                    int at = endOffset(r, positions);
                    throw new PdbLoadException(source, positions.line(at), positions.column(at),
                            "DOCTYPE declarations are not supported in ruleset files (no DTDs or custom entities); "
                                    + "remove the <!DOCTYPE ...> declaration");
                }
                case XMLStreamConstants.ENTITY_REFERENCE -> {
                    int at = endOffset(r, positions);
                    throw new PdbLoadException(source, positions.line(at), positions.column(at),
                            "Entity &" + r.getLocalName() + "; is not defined; only &lt; &gt; &amp; &quot; &apos; "
                                    + "and character references (&#...;) can be used");
                }
                default -> {
                    // START_DOCUMENT, END_DOCUMENT
                }
            }
        }
    }

    /** Offset just after the markup the reader has reported (its location). */
    private static int endOffset(XMLStreamReader r, SourcePositions positions) {
        Location l = r.getLocation();
        return positions.offsetOf(l.getLineNumber(), l.getColumnNumber());
    }

    /** The {@code <} that ends the text gap starting at {@code from} (CDATA sections are part of the gap). */
    private static int markupStart(String text, int from) {
        int i = from;
        while (true) {
            int lt = text.indexOf('<', i);
            if (lt < 0) {
                return text.length();
            }
            if (!text.startsWith("<![CDATA[", lt)) {
                return lt;
            }
            int close = text.indexOf("]]>", lt + 9);
            if (close < 0) {
                return text.length();
            }
            i = close + 3;
        }
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        // the reference is not namespace aware: xmlns attributes are ordinary attributes, prefixes part of names
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        return f;
    }

    private static PdbLoadException malformed(XMLStreamException e, SourcePositions positions, String source) {
        Location l = e.getLocation();
        int at = l == null ? -1 : positions.offsetOf(l.getLineNumber(), l.getColumnNumber());
        String what = e.getMessage() == null ? "unknown error" : e.getMessage();
        int m = what.indexOf("Message: ");
        if (m >= 0) {
            what = what.substring(m + "Message: ".length());
        }
        return new PdbLoadException(source, positions.line(at), positions.column(at),
                "malformed XML: " + what.strip() + "; fix the XML syntax at this position");
    }

    private static String decodeUtf8(byte[] bytes, String source) throws PdbLoadException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            int[] at = SourcePositions.bytePosition(bytes, in.position());
            throw new PdbLoadException(source, at[0], at[1], "Invalid UTF-8 encoded text; ruleset files are read as "
                    + "UTF-8 (as syslog-ng does, whatever the XML declaration says), convert the file to UTF-8");
        }
        try {
            result = decoder.flush(out);
            if (result.isError()) {
                result.throwException();
            }
        } catch (CharacterCodingException e) {
            throw new PdbLoadException(source, 0, 0, "Invalid UTF-8 encoded text at the end of the file; "
                    + "convert the file to UTF-8");
        }
        out.flip();
        return out.toString();
    }
}
