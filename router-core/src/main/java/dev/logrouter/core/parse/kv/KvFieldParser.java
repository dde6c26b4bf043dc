package dev.logrouter.core.parse.kv;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;

import java.nio.charset.StandardCharsets;

/**
 * The {@code kv} parser: writes each pair {@link KvScanner} finds as field {@code <prefix><key>} (a repeated key
 * keeps its last value), and the stray words to {@code stray-words-value-name} when it is set. Like syslog-ng's
 * kv-parser it never fails: input without pairs parses to nothing, an unbalanced quote keeps the raw rest of the
 * input as the value. Keys and unquoted values are copied straight from the input bytes; nothing is allocated per
 * message.
 *
 * <p>Threads: one instance per parse worker, used by that worker only.
 */
public final class KvFieldParser extends FieldParser {

    private final KvScanner scanner;
    private final byte[] strayWordsName;

    KvFieldParser(KvParserConfig cfg, ParseContext ctx) {
        super(cfg.prefix(), cfg.template(), ctx);
        this.strayWordsName = cfg.strayWordsValueName() == null
                ? null : cfg.strayWordsValueName().getBytes(StandardCharsets.UTF_8);
        this.scanner = new KvScanner((byte) cfg.valueSeparator().charAt(0),
                cfg.pairSeparator().getBytes(StandardCharsets.UTF_8), strayWordsName != null);
    }

    @Override
    protected boolean parse(byte[] in, int off, int len, LogEvent event) {
        KvScanner s = scanner;
        s.input(in, off, len);
        while (s.next()) {
            out.set(in, s.keyStart(), s.keyLength(), s.valueArray(), s.valueOffset(), s.valueLength());
        }
        if (strayWordsName != null) {
            out.table().set(strayWordsName, 0, strayWordsName.length,
                    s.strayWords().array(), 0, s.strayWords().length(), 0);
        }
        return true;
    }
}
