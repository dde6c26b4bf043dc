package dev.logrouter.sinks.elasticsearch;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The streaming reader of bulk answers, on answers shaped as Elasticsearch 8 writes them with
 * {@code filter_path=items.*.status,items.*.error} (ElasticsearchSinkTest checks the same against a real server).
 */
class BulkAnswerTest {

    private static InputStream json(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void statusPerItemAndTheErrorOfEachFailedOne() throws IOException {
        BulkAnswer a = BulkAnswer.read(json("""
                {"items":[{"create":{"status":201}},
                 {"create":{"status":409,"error":{"type":"version_conflict_engine_exception",
                   "reason":"[x]: version conflict, document already exists","index_uuid":"u","shard":"0"}}},
                 {"index":{"status":400,"error":{"type":"document_parsing_exception","reason":"failed to parse",
                   "caused_by":{"type":"illegal_argument_exception","reason":"bad date"}}}},
                 {"create":{"status":429,"error":{"type":"es_rejected_execution_exception","reason":"queue full"}}}]}
                """), 4);
        assertThat(a.size()).isEqualTo(4);
        assertThat(new int[] {a.status(0), a.status(1), a.status(2), a.status(3)}).containsExactly(201, 409, 400, 429);
        assertThat(a.reason(0)).isNull();
        assertThat(a.reason(1)).isEqualTo("version_conflict_engine_exception: [x]: version conflict, document "
                + "already exists");
        assertThat(a.reason(2)).isEqualTo("document_parsing_exception: failed to parse (caused by "
                + "illegal_argument_exception: bad date)");
        assertThat(a.reason(3)).startsWith("es_rejected_execution_exception");
    }

    @Test
    void anAnswerWithoutErrorsHasNoErrorArray() throws IOException {
        BulkAnswer a = BulkAnswer.read(json(
                "{\"items\":[{\"create\":{\"status\":201}},{\"index\":{\"status\":200}}]}"), 2);
        assertThat(a.status(0)).isEqualTo(201);
        assertThat(a.status(1)).isEqualTo(200);
        assertThat(a.reason(1)).isNull();
        assertThat(a.reasons()).as("allocated only for an answer with an error").isNull();
    }

    @Test
    void anAnswerThatDoesNotMatchTheRequestIsAnError() {
        assertThatThrownBy(() -> BulkAnswer.read(json("{\"items\":[{\"create\":{\"status\":201}}]}"), 2))
                .isInstanceOf(IOException.class).hasMessageContaining("1 items for 2 documents");
        assertThatThrownBy(() -> BulkAnswer.read(json("{\"items\":[{\"create\":{\"status\":201}}]}"), 0))
                .isInstanceOf(IOException.class).hasMessageContaining("more items");
        assertThatThrownBy(() -> BulkAnswer.read(json("[]"), 0)).isInstanceOf(IOException.class);
    }

    @Test
    void theErrorOfARequestRefusedAsAWhole() {
        assertThat(BulkAnswer.requestError(json("""
                {"error":{"root_cause":[{"type":"x","reason":"y"}],"type":"parsing_exception",
                 "reason":"request body is required"},"status":400}
                """))).isEqualTo("parsing_exception: request body is required");
        assertThat(BulkAnswer.requestError(json("<html>413 Request Entity Too Large</html>"))).isNull();
        assertThat(BulkAnswer.requestError(json("{\"error\":\"Content-Type header is not supported\"}")))
                .isEqualTo("Content-Type header is not supported");
    }
}
