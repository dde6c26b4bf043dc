package dev.logrouter.netty.relp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RelpFrameDecoder} in an {@link EmbeddedChannel}: whole frames, data holding LF, frames split at every byte,
 * zero-length frames with and without the SP, each grammar violation reported once with nothing delivered after
 * it, oversize data, a close mid-frame; every buffer written in is released.
 *
 * <p>Threads: the JUnit thread (the embedded channel's event loop).
 */
class RelpFrameDecoderTest {

    /** What the decoder delivered: "txnr cmd [data]" per frame, "!reason" per violation. */
    private static final class Recorder implements RelpFrameDecoder.Listener {
        final List<String> events = new ArrayList<>();

        @Override
        public void frame(int txnr, ByteBuf buf, int cmdOff, int cmdLen, int dataOff, int dataLen) {
            events.add(txnr + " " + buf.toString(cmdOff, cmdLen, StandardCharsets.US_ASCII) + " ["
                    + buf.toString(dataOff, dataLen, StandardCharsets.UTF_8) + "]");
        }

        @Override
        public void malformed(String reason) {
            events.add("!" + reason);
        }
    }

    private static List<String> decode(int max, String... reads) {
        Recorder r = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(new RelpFrameDecoder(max, r));
        List<ByteBuf> written = new ArrayList<>();
        for (String s : reads) {
            ByteBuf b = Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
            written.add(b);
            ch.writeInbound(b);
        }
        assertThat((Object) ch.readInbound()).as("the decoder passes nothing on").isNull();
        ch.finishAndReleaseAll();
        for (ByteBuf b : written) {
            assertThat(b.refCnt()).as("every read released").isZero();
        }
        return r.events;
    }

    private static List<String> byteByByte(int max, String input) {
        String[] reads = new String[input.length()];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = input.substring(i, i + 1);
        }
        return decode(max, reads);
    }

    @Test
    void wholeFrames() {
        String in = "1 open 5 hello\n2 syslog 3 abc\n3 rsp 6 200 OK\n";
        List<String> expected = List.of("1 open [hello]", "2 syslog [abc]", "3 rsp [200 OK]");
        assertThat(decode(1024, in)).containsExactlyElementsOf(expected);
        assertThat(byteByByte(1024, in)).containsExactlyElementsOf(expected);
        assertThat(decode(1024, "1 open 5 hel", "lo\n2 sys", "log 3 abc", "\n3 rsp 6 200 OK", "\n"))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void dataIsTakenByCountAndMayHoldLineFeeds() {
        assertThat(byteByByte(64, "2 syslog 11 line1\nline2\n")).containsExactly("2 syslog [line1\nline2]");
    }

    @Test
    void zeroLengthFramesWithOrWithoutTheSpace() {
        assertThat(decode(64, "5 close 0\n0 serverclose 0 \n")).containsExactly("5 close []", "0 serverclose []");
    }

    @Test
    void leadingZerosAndLongestFields() {
        String cmd = "a".repeat(RelpFrameDecoder.MAX_COMMAND);
        assertThat(decode(64, "02 syslog 1 x\n999999999 " + cmd + " 0\n"))
                .containsExactly("2 syslog [x]", "999999999 " + cmd + " []");
    }

    @Test
    void eachViolationIsReportedOnceAndEndsTheStream() {
        assertThat(decode(64, "1234567890 syslog 1 x\n2 syslog 1 y\n")).containsExactly("!txnr longer than 9 digits");
        assertThat(decode(64, "1x syslog 1 x\n")).singleElement().asString().startsWith("!txnr is not a number");
        assertThat(decode(64, " syslog 1 x\n")).containsExactly("!frame starts with a space, no txnr");
        assertThat(decode(64, "1 " + "a".repeat(33) + " 0\n")).containsExactly("!command longer than 32 letters");
        assertThat(decode(64, "1 sys1og 1 x\n")).singleElement().asString().startsWith("!command has a byte");
        assertThat(decode(64, "1  1 x\n")).containsExactly("!no command");
        assertThat(decode(64, "1 close \n")).containsExactly("!no datalen");
        assertThat(decode(64, "1 syslog 1234567890 x\n")).containsExactly("!datalen longer than 9 digits");
        assertThat(decode(64, "1 syslog 1x x\n")).singleElement().asString().startsWith("!datalen is not a number");
        assertThat(decode(64, "1 syslog 3\n")).containsExactly("!datalen 3 but no data");
        assertThat(decode(64, "1 syslog 3 abcd\n2 syslog 1 y\n")).containsExactly("!no LF after 3 data bytes (byte 100)");
        assertThat(decode(64, "1 syslog 1 a\n2 syslog 2 bcX3 syslog 1 c\n"))
                .containsExactly("1 syslog [a]", "!no LF after 2 data bytes (byte 88)");
    }

    @Test
    void oversizeDataIsRefusedBeforeItArrives() {
        assertThat(decode(8, "1 syslog 9 ")).containsExactly("!frame of 9 data bytes, more than the 8 allowed");
        assertThat(decode(8, "1 syslog 8 12345678\n")).containsExactly("1 syslog [12345678]");
    }

    @Test
    void aCloseMidFrameDeliversNothingMore() {
        assertThat(decode(64, "1 syslog 1 a\n2 syslog 5 ab")).containsExactly("1 syslog [a]");
        assertThat(decode(64, "1 sys")).isEmpty();
        assertThat(decode(64, "12")).isEmpty();
    }
}
