package dev.logrouter.sinks.elasticsearch;

import org.apache.http.ContentTooLongException;
import org.apache.http.HttpResponse;
import org.apache.http.HttpVersion;
import org.apache.http.entity.BasicHttpEntity;
import org.apache.http.message.BasicHttpResponse;
import org.apache.http.nio.ContentDecoder;
import org.apache.http.protocol.BasicHttpContext;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bulk answer's consumer, driven through Apache HttpCore's own consumer interface as the client drives it. */
class PooledResponseConsumerTest {

    private final BlockingQueue<ByteBuffer> pool = new ArrayBlockingQueue<>(2);

    /** A decoder handing over {@code body} in chunks of at most {@code chunk} bytes, as a socket would. */
    private static ContentDecoder decoder(byte[] body, int chunk) {
        return new ContentDecoder() {
            private int at;

            @Override
            public int read(ByteBuffer dst) {
                if (at == body.length) {
                    return -1;
                }
                int n = Math.min(Math.min(chunk, dst.remaining()), body.length - at);
                dst.put(body, at, n);
                at += n;
                return n;
            }

            @Override
            public boolean isCompleted() {
                return at == body.length;
            }
        };
    }

    private static byte[] body(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** One response through the consumer; its body's entity, not released. */
    private HttpResponse consume(byte[] body, long declaredLength, int limit) throws Exception {
        PooledResponseConsumer c = new PooledResponseConsumer(pool, limit);
        BasicHttpResponse r = new BasicHttpResponse(HttpVersion.HTTP_1_1, 200, "OK");
        BasicHttpEntity e = new BasicHttpEntity();
        e.setContentLength(declaredLength);
        e.setContentType("application/json");
        r.setEntity(e);
        c.responseReceived(r);
        ContentDecoder d = decoder(body, 1000);
        while (!d.isCompleted()) {
            c.consumeContent(d, null);
        }
        c.responseCompleted(new BasicHttpContext());
        return c.getResult();
    }

    private static byte[] read(HttpResponse r) throws IOException {
        try (InputStream in = r.getEntity().getContent()) {
            return in.readAllBytes();
        }
    }

    @Test
    void aBodyOfUnknownLengthIsReadWholeAndItsBufferServesTheNextResponse() throws Exception {
        byte[] first = body(40_000);
        HttpResponse r = consume(first, -1, 1 << 20);
        assertThat(read(r)).isEqualTo(first);
        assertThat(r.getEntity().getContentType().getValue()).isEqualTo("application/json");
        assertThat(pool).isEmpty();
        ((PooledResponseConsumer.Body) r.getEntity()).release();
        ((PooledResponseConsumer.Body) r.getEntity()).release(); // once only
        assertThat(pool).hasSize(1);
        ByteBuffer used = pool.peek();

        byte[] second = Arrays.copyOf(body(30_000), 30_000);
        second[0] = 'Z';
        HttpResponse r2 = consume(second, -1, 1 << 20);
        assertThat(pool).as("the pooled buffer was taken again").isEmpty();
        assertThat(read(r2)).isEqualTo(second);
        ((PooledResponseConsumer.Body) r2.getEntity()).release();
        assertThat(pool.peek()).isSameAs(used);
        assertThatThrownBy(() -> r2.getEntity().getContent()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDeclaredLengthSizesTheBufferOnce() throws Exception {
        byte[] b = body(50_000);
        HttpResponse r = consume(b, b.length, 1 << 20);
        assertThat(read(r)).isEqualTo(b);
        ((PooledResponseConsumer.Body) r.getEntity()).release();
        assertThat(pool.peek().capacity()).isEqualTo(b.length);
    }

    @Test
    void aBodyOverTheLimitFailsAndItsBufferGoesBack() throws Exception {
        assertThatThrownBy(() -> consume(body(5_000), 5_000, 4_096)).isInstanceOf(ContentTooLongException.class);
        PooledResponseConsumer c = new PooledResponseConsumer(pool, PooledResponseConsumer.INITIAL);
        BasicHttpResponse r = new BasicHttpResponse(HttpVersion.HTTP_1_1, 200, "OK");
        r.setEntity(new BasicHttpEntity()); // length unknown
        c.responseReceived(r);
        ContentDecoder d = decoder(body(PooledResponseConsumer.INITIAL + 1), 1000);
        assertThatThrownBy(() -> {
            while (!d.isCompleted()) {
                c.consumeContent(d, null);
            }
        }).isInstanceOf(ContentTooLongException.class);
        c.failed(new ContentTooLongException("as the client reports it"));
        assertThat(pool).as("a failed response's buffer is free again").hasSize(1);
    }
}
