package dev.logrouter.sinks.elasticsearch;

import org.apache.http.ContentTooLongException;
import org.apache.http.HttpEntity;
import org.apache.http.HttpResponse;
import org.apache.http.entity.AbstractHttpEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.nio.ContentDecoder;
import org.apache.http.nio.IOControl;
import org.apache.http.nio.protocol.AbstractAsyncResponseConsumer;
import org.apache.http.protocol.HttpContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a response body into a heap buffer taken from a pool, in place of the REST client's default consumer,
 * which allocates a buffer per response and grows it by doubling (on the bulk path, ~60 B per document: the
 * per-item statuses). The response's entity is a {@link Body} over that buffer; whoever reads it gives the buffer
 * back with {@link Body#release()} (the delivery, after reading a bulk answer). A body never released (a failed
 * request, whose entity the client copies into its exception; a gzip-compressed one, which the client wraps) is
 * left to the garbage collector and the pool makes up for it with a new buffer.
 *
 * <p>Threads: created on the thread that sends the request, then used by the client's I/O thread that receives
 * the response; the pool is shared by every request (a concurrent queue).
 */
final class PooledResponseConsumer extends AbstractAsyncResponseConsumer<HttpResponse> {

    /** First size of a new buffer when the response does not say its length. */
    static final int INITIAL = 16 * 1024;

    private final BlockingQueue<ByteBuffer> pool;
    private final int limit;
    private HttpResponse response;
    private ByteBuffer buf;

    /**
     * @param pool  free buffers (bounded: a buffer that does not fit is dropped)
     * @param limit longest body taken; a longer one fails the request, as the client's default consumer does
     */
    PooledResponseConsumer(BlockingQueue<ByteBuffer> pool, int limit) {
        this.pool = pool;
        this.limit = limit;
    }

    @Override
    protected void onResponseReceived(HttpResponse r) {
        this.response = r;
    }

    @Override
    protected void onEntityEnclosed(HttpEntity entity, ContentType contentType) throws IOException {
        long length = entity.getContentLength();
        if (length > limit) {
            throw new ContentTooLongException("entity content is too long [" + length
                    + "] for the configured buffer limit [" + limit + "]");
        }
        ByteBuffer b = pool.poll();
        if (b == null) {
            b = ByteBuffer.allocate((int) Math.max(INITIAL, length));
        }
        b.clear();
        buf = b;
        if (length > b.capacity()) {
            grow((int) length);
        }
    }

    @Override
    protected void onContentReceived(ContentDecoder decoder, IOControl ioControl) throws IOException {
        while (!decoder.isCompleted()) {
            if (!buf.hasRemaining()) {
                if (buf.capacity() >= limit) {
                    throw new ContentTooLongException("entity content is too long for the configured buffer limit ["
                            + limit + "]");
                }
                grow((int) Math.min(limit, 2L * buf.capacity()));
            }
            if (decoder.read(buf) <= 0) {
                return;
            }
        }
    }

    private void grow(int capacity) {
        ByteBuffer bigger = ByteBuffer.allocate(capacity);
        buf.flip();
        bigger.put(buf);
        buf = bigger;
    }

    @Override
    protected HttpResponse buildResult(HttpContext context) {
        if (buf != null) {
            buf.flip();
            HttpEntity e = response.getEntity();
            response.setEntity(new Body(buf, pool, e == null ? null : e.getContentType()));
            buf = null; // the entity owns it now
        }
        return response;
    }

    @Override
    protected void releaseResources() {
        if (buf != null) { // failed or cancelled before the result was built: nothing else holds it
            pool.offer(buf);
            buf = null;
        }
        response = null;
    }

    /** A response body in a pooled buffer; {@link #release()} gives the buffer back once it has been read. */
    static final class Body extends AbstractHttpEntity {
        private final BlockingQueue<ByteBuffer> pool;
        private ByteBuffer buf;

        Body(ByteBuffer buf, BlockingQueue<ByteBuffer> pool, org.apache.http.Header contentType) {
            this.buf = buf;
            this.pool = pool;
            setContentType(contentType);
        }

        @Override
        public boolean isRepeatable() {
            return false; // the client copies a failed request's body instead of keeping this one
        }

        @Override
        public long getContentLength() {
            return buf == null ? 0 : buf.limit();
        }

        @Override
        public InputStream getContent() {
            if (buf == null) {
                throw new IllegalStateException("response body already released");
            }
            return new ByteArrayInputStream(buf.array(), 0, buf.limit());
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            out.write(buf.array(), 0, buf.limit());
        }

        @Override
        public boolean isStreaming() {
            return false;
        }

        /** Gives the buffer back to the pool; the body cannot be read after this. Once only. */
        void release() {
            ByteBuffer b = buf;
            if (b != null) {
                buf = null;
                pool.offer(b);
            }
        }
    }
}
