package dev.logrouter.netty.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The cumulator's two ways (room in front of the new read, or Netty's merge) and the reads with room in front. */
class HeadroomCumulatorTest {

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

    /** A read as {@link HeadroomRecvAllocator} hands it out: {@code room} free bytes, then {@code s}. */
    private ByteBuf read(int room, String s) {
        ByteBuf b = alloc.buffer(room + s.length());
        b.setIndex(room, room);
        return b.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    private ByteBuf leftover(String s) {
        ByteBuf b = alloc.buffer(64);
        b.writeBytes(("done\n" + s).getBytes(StandardCharsets.US_ASCII));
        b.skipBytes(5); // the frame before it was decoded
        return b;
    }

    private static String text(ByteBuf b) {
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void aLeftoverThatFitsGoesInFrontOfTheReadWhichIsNotCopied() {
        ByteBuf old = leftover("<13>par");
        ByteBuf in = read(16, "tial\n<13>next\n");
        ByteBuf result = HeadroomCumulator.INSTANCE.cumulate(alloc, old, in);
        assertThat(result).isSameAs(in);
        assertThat(text(result)).isEqualTo("<13>partial\n<13>next\n");
        assertThat(result.readerIndex()).isEqualTo(16 - 7);
        assertThat(old.refCnt()).as("the old cumulation is released").isZero();
        assertThat(result.refCnt()).isOne();
        result.release();
    }

    @Test
    void aLeftoverLongerThanTheRoomIsMergedAsNettyDoes() {
        ByteBuf old = leftover("<13>partial line");
        ByteBuf in = read(4, "\n");
        ByteBuf result = HeadroomCumulator.INSTANCE.cumulate(alloc, old, in);
        assertThat(result).isSameAs(old);
        assertThat(text(result)).isEqualTo("<13>partial line\n");
        assertThat(in.refCnt()).as("the read is released once copied").isZero();
        result.release();
    }

    @Test
    void aReadSomeoneElseHoldsIsNotWrittenInFrontOf() {
        ByteBuf old = leftover("ab");
        ByteBuf in = read(8, "c\n");
        in.setBytes(0, "XXXXXXXX".getBytes(StandardCharsets.US_ASCII));
        ByteBuf view = in.retainedSlice(0, 8); // e.g. frames kept aside from it
        ByteBuf result = HeadroomCumulator.INSTANCE.cumulate(alloc, old, in);
        assertThat(result).isNotSameAs(in);
        assertThat(text(result)).isEqualTo("abc\n");
        assertThat(text(view)).isEqualTo("XXXXXXXX");
        view.release();
        assertThat(in.refCnt()).isZero();
        result.release();
    }

    @Test
    void framesKeptFromTheOldCumulationStayAsTheyWere() {
        ByteBuf old = leftover("<13>par");
        ByteBuf kept = old.retainedSlice(0, 4); // "done", a frame not yet in the ring
        ByteBuf in = read(16, "tial\n");
        ByteBuf result = HeadroomCumulator.INSTANCE.cumulate(alloc, old, in);
        assertThat(result).isSameAs(in);
        assertThat(text(result)).isEqualTo("<13>partial\n");
        assertThat(text(kept)).isEqualTo("done");
        kept.release();
        assertThat(old.refCnt()).isZero();
        result.release();
    }

    @Test
    void nothingLeftTakesTheReadAsItIs() {
        ByteBuf in = read(16, "<13>whole\n");
        ByteBuf result = HeadroomCumulator.INSTANCE.cumulate(alloc, Unpooled.EMPTY_BUFFER, in);
        assertThat(result).isSameAs(in);
        assertThat(result.readerIndex()).isEqualTo(16);
        result.release();
    }

    @Test
    void readsHaveTheRoomInFrontAndTheAdaptiveSizeBehind() {
        RecvByteBufAllocator.Handle handle = new HeadroomRecvAllocator().newHandle();
        assertThat(handle).isInstanceOf(RecvByteBufAllocator.ExtendedHandle.class); // the epoll transport casts to it
        int guess = new AdaptiveRecvByteBufAllocator().newHandle().guess();
        ByteBuf b = handle.allocate(alloc);
        assertThat(b.readerIndex()).isEqualTo(HeadroomRecvAllocator.HEADROOM);
        assertThat(b.writerIndex()).isEqualTo(HeadroomRecvAllocator.HEADROOM);
        assertThat(b.writableBytes()).isGreaterThanOrEqualTo(guess);
        b.release();
        // as many reads per wake-up as Netty gives a channel whose allocator it makes
        handle.reset(new io.netty.channel.embedded.EmbeddedChannel().config());
        int reads = 0;
        do {
            handle.incMessagesRead(1);
            handle.lastBytesRead(1);
            handle.attemptedBytesRead(1);
            reads++;
        } while (handle.continueReading() && reads < 100);
        assertThat(reads).isEqualTo(16);
    }
}
