package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The encoder half of the Elasticsearch sink: one event to one record holding what its bulk item needs, the index
 * name, the {@code _id} and the document, in a framing {@link ElasticsearchDelivery} reads back (and a journal keeps
 * across restarts; the record refers to nothing outside itself):
 * <pre>
 *   byte 0           u8  index name length n (1..255)
 *   bytes 1 .. n         index name, UTF-8, already made valid ({@link IndexNames}: lowercased, forbidden bytes
 *                        made _, cut at 255 bytes, never empty)
 *   bytes n+1 .. n+4 i32 _id length m, big-endian (0: no _id, Elasticsearch makes one)
 *   next m bytes         _id, UTF-8 (longer than 512 bytes when the id template rendered so: the delivery
 *                        dead-letters the document instead of sending it)
 *   the rest             the document: one JSON object, without raw line breaks
 * </pre>
 * The rules are those the sink has always applied per event: the index template rendered and made valid; the
 * {@code id} template rendered, and when it is absent or renders empty, with {@code generate-id} a generated id
 * ({@link DocumentIds}: given here, once per event, so that every resend of the document, after a restart from the
 * journal too, carries the same {@code _id}); the document from {@code template} (raw CR and LF made spaces, as they
 * would end the document's line in the bulk body) or the built-in {@link DocumentWriter}. Everything is rendered
 * straight into the record: nothing is allocated per event.
 *
 * <p>Threads: the sink's thread ({@code sink-<name>}); keeps scratch state (the id counter).
 */
final class ElasticsearchEncoder implements SinkEncoder {

    /** Longest index name Elasticsearch accepts, in bytes. */
    static final int MAX_INDEX = 255;
    /** Longest _id Elasticsearch accepts, in bytes. */
    static final int MAX_ID = 512;

    private final Template indexTemplate;
    private final Template idTemplate;
    private final Template documentTemplate;
    private final DocumentWriter documents;
    private final DocumentIds ids;

    ElasticsearchEncoder(ElasticsearchSinkConfig cfg, ZoneId zone) {
        this.indexTemplate = Template.compile(cfg.index(), zone);
        this.idTemplate = cfg.id() == null ? null : Template.compile(cfg.id(), zone);
        this.documentTemplate = cfg.template() == null ? null : Template.compile(cfg.template(), zone);
        this.documents = new DocumentWriter("ecs".equals(cfg.schema()), zone);
        this.ids = cfg.generateId() ? new DocumentIds() : null;
    }

    @Override
    public void encode(LogEvent event, ByteBuilder out) {
        int indexAt = out.length();
        out.append((byte) 0);
        indexTemplate.render(event, out);
        IndexNames.sanitize(out, indexAt + 1, MAX_INDEX);
        out.array()[indexAt] = (byte) (out.length() - indexAt - 1);

        int idAt = out.length();
        out.append((byte) 0).append((byte) 0).append((byte) 0).append((byte) 0);
        if (idTemplate != null) {
            idTemplate.render(event, out);
        }
        if (out.length() == idAt + 4 && ids != null) {
            ids.next(out); // an id template that rendered empty still gets an id, so retries cannot duplicate
        }
        ByteBuilder.setInt(out.array(), idAt, out.length() - idAt - 4);

        int documentAt = out.length();
        if (documentTemplate != null) {
            documentTemplate.render(event, out);
            // a raw line break would end the document's line in the bulk body; outside strings it is whitespace,
            // inside one it is invalid JSON either way
            byte[] b = out.array();
            for (int i = documentAt; i < out.length(); i++) {
                if (b[i] == '\n' || b[i] == '\r') {
                    b[i] = ' ';
                }
            }
        } else {
            documents.write(event, out);
        }
    }

    /**
     * {@code index}; {@code id} (absent when the document has none, {@code (generated)} when this encoder generated
     * it: a generated id differs on every run); {@code document}.
     */
    @Override
    public Map<String, String> describe(byte[] record, int off, int len) {
        Map<String, String> parts = new LinkedHashMap<>();
        int index = record[off] & 0xFF;
        parts.put("index", new String(record, off + 1, index, StandardCharsets.UTF_8));
        int idAt = off + 1 + index;
        int id = ByteBuilder.getInt(record, idAt);
        if (id > 0) {
            parts.put("id", ids != null && ids.generated(record, idAt + 4, id) ? "(generated)"
                    : new String(record, idAt + 4, id, StandardCharsets.UTF_8));
        }
        int doc = idAt + 4 + id;
        parts.put("document", new String(record, doc, off + len - doc, StandardCharsets.UTF_8));
        return parts;
    }

    /** The document: the record less the index name, the id and their lengths. */
    @Override
    public int payloadLength(byte[] record, int off, int len) {
        int idAt = off + 1 + (record[off] & 0xFF);
        return len - (idAt + 4 - off) - ByteBuilder.getInt(record, idAt);
    }
}
