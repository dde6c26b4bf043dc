package dev.logrouter.sinks.kafka;

import dev.logrouter.core.template.ByteBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link KafkaDelivery#checkFraming}: a record framed as {@link KafkaEncoder} frames it passes, whole or without key
 * and headers; every shorter cut of it, and a damaged length, is refused with a clear error (a damaged journal is the
 * only source of such bytes), so the add of that one record fails rather than its send inside the producer.
 */
class KafkaFramingTest {

    private static byte[] record(String topic, String key, String[][] headers, String value) {
        ByteBuilder b = new ByteBuilder(64);
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        b.append((byte) t.length).append(t);
        if (key == null) {
            b.appendInt(-1);
        } else {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            b.appendInt(k.length).append(k);
        }
        b.append((byte) headers.length);
        for (String[] h : headers) {
            byte[] n = h[0].getBytes(StandardCharsets.UTF_8);
            byte[] v = h[1].getBytes(StandardCharsets.UTF_8);
            b.append((byte) (n.length >>> 8)).append((byte) n.length).append(n).appendInt(v.length).append(v);
        }
        b.append(value.getBytes(StandardCharsets.UTF_8));
        return Arrays.copyOf(b.array(), b.length());
    }

    @Test
    void wellFramedRecordsPass() {
        byte[] full = record("logs", "host1", new String[][] {{"origin", "in"}, {"h", "v"}}, "a message");
        byte[] bare = record("t", null, new String[0][], "");
        assertThatCode(() -> KafkaDelivery.checkFraming(full, 0, full.length)).doesNotThrowAnyException();
        assertThatCode(() -> KafkaDelivery.checkFraming(bare, 0, bare.length)).doesNotThrowAnyException();
        byte[] inside = new byte[full.length + 10];
        System.arraycopy(full, 0, inside, 5, full.length);
        assertThatCode(() -> KafkaDelivery.checkFraming(inside, 5, full.length)).doesNotThrowAnyException();
    }

    @Test
    void cutOrDamagedRecordsAreRefused() {
        byte[] full = record("logs", "host1", new String[][] {{"origin", "in"}}, "");
        int valueStart = full.length; // empty value: every cut shorter than the record removes framing
        for (int n = 0; n < valueStart; n++) {
            int len = n;
            assertThatThrownBy(() -> KafkaDelivery.checkFraming(full, 0, len)).as("cut at %d", n)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a Kafka sink record");
        }
        byte[] badKey = full.clone();
        ByteBuilder.setInt(badKey, 1 + 4, 1_000); // key length past the end
        assertThatThrownBy(() -> KafkaDelivery.checkFraming(badKey, 0, badKey.length))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] negative = full.clone();
        ByteBuilder.setInt(negative, 1 + 4, -7);
        assertThatThrownBy(() -> KafkaDelivery.checkFraming(negative, 0, negative.length))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
