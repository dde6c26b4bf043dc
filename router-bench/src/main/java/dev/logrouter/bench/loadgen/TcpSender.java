package dev.logrouter.bench.loadgen;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One TCP connection: frames go out in large blocking writes (a whole batch per {@code write} call when the
 * socket buffer allows). The receiver's backpressure simply blocks the write.
 */
final class TcpSender extends ConnectionSender {

    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final SocketChannel channel;

    /** Connects now, so that connection errors surface before any sender starts. */
    TcpSender(InetSocketAddress target, MessageBatch batch, long count, double perSecond) throws IOException {
        super(batch, count, perSecond);
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().connect(target, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        this.channel = ch;
    }

    @Override
    void write(ByteBuffer frames, int n, int frameSize) throws IOException {
        while (frames.hasRemaining()) {
            channel.write(frames);
        }
    }

    @Override
    void close() throws IOException {
        channel.close();
    }
}
