package dev.logrouter.netty.relp;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes {@link RelpFrameDecoder} through an {@link EmbeddedChannel}: the fuzzer chooses the data limit, where the
 * input is cut into reads, and the input.
 *
 * <p>Properties: nothing throws; every frame's command and data lie in the readable part of the buffer handed over;
 * the frames and the violation (at most one, and nothing after it) equal those of {@link #reference}, a plain model
 * of the documented grammar run on the whole input, so the result does not depend on how the input was cut; every
 * read is released at the end.
 *
 * <p>Runs in regression mode over {@code RelpFrameDecoderFuzzTestInputs/decoder} with every build, and fuzzes for
 * a few seconds in the build's {@code fuzz-relp-decoder} surefire execution (see "Fuzzing" in docs/operations.md).
 *
 * <p>Threads: the JUnit thread (the embedded channel runs its event loop there).
 */
class RelpFrameDecoderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void decoder(FuzzedDataProvider data) {
        int max = data.consumeBoolean() ? data.consumeInt(0, 16) : data.consumeInt(17, 70_000);
        int[] cuts = new int[data.consumeInt(0, 12)];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = data.consumeInt(1, 300);
        }
        byte[] input = data.consumeRemainingAsBytes();

        Recorder rec = new Recorder();
        EmbeddedChannel ch = new EmbeddedChannel(new RelpFrameDecoder(max, rec));
        List<ByteBuf> reads = new ArrayList<>();
        int pos = 0;
        for (int i = 0; pos < input.length; i++) {
            int n = i < cuts.length ? Math.min(cuts[i], input.length - pos) : input.length - pos;
            ByteBuf read = Unpooled.buffer(n).writeBytes(input, pos, n);
            reads.add(read);
            pos += n;
            ch.writeInbound(read);
        }
        ch.finishAndReleaseAll();
        for (ByteBuf b : reads) {
            assertThat(b.refCnt()).as("read released").isZero();
        }

        Result expected = reference(input, max);
        assertThat(rec.frames).as("frames").usingElementComparator(RelpFrameDecoderFuzzTest::compare)
                .containsExactlyElementsOf(expected.frames);
        assertThat(rec.malformed).as("violations").isEqualTo(expected.malformed ? 1 : 0);
    }

    /** A frame as the model sees it: the transaction number, the command and the data. */
    private record Frame(int txnr, byte[] command, byte[] data) {
    }

    private record Result(List<Frame> frames, boolean malformed) {
    }

    private static int compare(Frame a, Frame b) {
        int c = Integer.compare(a.txnr, b.txnr);
        if (c == 0) {
            c = Arrays.compare(a.command, b.command);
        }
        return c != 0 ? c : Arrays.compare(a.data, b.data);
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean letter(byte b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z';
    }

    /**
     * The grammar on the whole input: {@code TXNR SP COMMAND SP DATALEN (LF | SP DATA LF)} with TXNR and DATALEN
     * 1-9 digits, COMMAND 1-32 letters, DATA exactly DATALEN bytes (at most {@code max}; with DATALEN 0 the data part
     * may be {@code SP} alone). The first byte that cannot continue a frame is the one violation; an incomplete
     * frame at the end is no violation.
     */
    static Result reference(byte[] in, int max) {
        List<Frame> frames = new ArrayList<>();
        int p = 0;
        int n = in.length;
        while (p < n) {
            int q = p;
            int txnr = 0;
            int digits = 0;
            while (q < n && in[q] != ' ') {
                if (!digit(in[q]) || digits == 9) {
                    return new Result(frames, true);
                }
                txnr = txnr * 10 + in[q] - '0';
                digits++;
                q++;
            }
            if (q == n) {
                break;
            }
            if (digits == 0) {
                return new Result(frames, true);
            }
            q++;
            int cmdStart = q;
            while (q < n && in[q] != ' ') {
                if (!letter(in[q]) || q - cmdStart == 32) {
                    return new Result(frames, true);
                }
                q++;
            }
            if (q == n) {
                break;
            }
            if (q == cmdStart) {
                return new Result(frames, true);
            }
            byte[] command = Arrays.copyOfRange(in, cmdStart, q);
            q++;
            long len = 0;
            digits = 0;
            while (q < n && in[q] != ' ' && in[q] != '\n') {
                if (!digit(in[q]) || digits == 9) {
                    return new Result(frames, true);
                }
                len = len * 10 + in[q] - '0';
                digits++;
                q++;
            }
            if (q == n) {
                break;
            }
            if (digits == 0 || len > max) {
                return new Result(frames, true);
            }
            if (in[q] == '\n') {
                if (len != 0) {
                    return new Result(frames, true);
                }
                frames.add(new Frame(txnr, command, new byte[0]));
                p = q + 1;
                continue;
            }
            long trailer = q + 1 + len;
            if (trailer >= n) {
                break;
            }
            if (in[(int) trailer] != '\n') {
                return new Result(frames, true);
            }
            frames.add(new Frame(txnr, command, Arrays.copyOfRange(in, q + 1, (int) trailer)));
            p = (int) trailer + 1;
        }
        return new Result(frames, false);
    }

    /** Records what the decoder hands over, checking the bounds of each frame. */
    private static final class Recorder implements RelpFrameDecoder.Listener {
        final List<Frame> frames = new ArrayList<>();
        int malformed;

        @Override
        public void frame(int txnr, ByteBuf buf, int cmdOff, int cmdLen, int dataOff, int dataLen) {
            assertThat(malformed).as("nothing after a violation").isZero();
            assertThat(buf.refCnt()).isPositive();
            assertThat(cmdOff).isGreaterThanOrEqualTo(buf.readerIndex());
            assertThat(cmdLen).isBetween(1, 32);
            assertThat(dataLen).isNotNegative();
            assertThat(dataOff + dataLen).isLessThanOrEqualTo(buf.writerIndex());
            byte[] cmd = new byte[cmdLen];
            buf.getBytes(cmdOff, cmd);
            byte[] d = new byte[dataLen];
            buf.getBytes(dataOff, d);
            frames.add(new Frame(txnr, cmd, d));
        }

        @Override
        public void malformed(String reason) {
            assertThat(reason).isNotBlank();
            malformed++;
        }
    }
}
