package dev.logrouter.bench.loadgen;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * One connected UDP socket: each frame of a batch is one datagram. A closed port shows up as a
 * {@link java.net.PortUnreachableException} on a later send, which ends the sender with an error.
 */
final class UdpSender extends ConnectionSender {

    private final DatagramChannel channel;

    /** Opens and connects the datagram socket now. */
    UdpSender(InetSocketAddress target, MessageBatch batch, long count, double perSecond) throws IOException {
        super(batch, count, perSecond);
        DatagramChannel ch = DatagramChannel.open();
        try {
            ch.connect(target);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        this.channel = ch;
    }

    @Override
    void write(ByteBuffer frames, int n, int frameSize) throws IOException {
        for (int i = 0; i < n; i++) {
            frames.limit((i + 1) * frameSize).position(i * frameSize);
            channel.write(frames);
        }
    }

    @Override
    void close() throws IOException {
        channel.close();
    }
}
