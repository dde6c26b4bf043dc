package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code in-list("/etc/logrouter/hosts.list", value("HOST"))}: the value is exactly one of the lines of a file, as
 * syslog-ng's {@code filter-in-list.c} decides it. The file is read once, when the filter is compiled: each line
 * without its line end ({@code \n}, or {@code \r\n}) is one value, compared byte for byte (case and any other
 * whitespace count); empty lines are skipped. An unset value is the empty string and so never matches.
 *
 * <p>Threads: the node is immutable; each {@link Filter} it builds belongs to one thread.
 */
final class InListFilter implements FilterNode {

    private final String file;
    private final ValueRef value;
    private final ByteKeySet lines;

    private InListFilter(String file, ValueRef value, ByteKeySet lines) {
        this.file = file;
        this.value = value;
        this.lines = lines;
    }

    /**
     * Reads {@code file} (relative paths against the working directory).
     *
     * @throws IOException when the file cannot be read
     */
    static InListFilter load(String file, ValueRef value) throws IOException {
        return new InListFilter(file, value, new ByteKeySet(lines(Files.readAllBytes(Path.of(file)))));
    }

    /** The non-empty lines of {@code content}, without {@code \n} or {@code \r\n}. */
    static List<byte[]> lines(byte[] content) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            if (i == content.length || content[i] == '\n') {
                int end = i;
                if (end > start && content[end - 1] == '\r') {
                    end--;
                }
                if (end > start) {
                    out.add(Arrays.copyOfRange(content, start, end));
                }
                start = i + 1;
            }
        }
        return out;
    }

    /** Number of distinct values in the list. */
    int size() {
        return lines.size();
    }

    @Override
    public Filter newFilter() {
        return new Instance(value.newReader(), lines);
    }

    @Override
    public String describe() {
        return "in-list(\"" + file + "\" value(\"" + value.text() + "\"))";
    }

    private static final class Instance implements Filter {
        private final ValueRef.Reader reader;
        private final ByteKeySet lines;

        Instance(ValueRef.Reader reader, ByteKeySet lines) {
            this.reader = reader;
            this.lines = lines;
        }

        @Override
        public boolean test(LogEvent event) {
            ValueRef.Reader r = reader;
            r.read(event);
            return r.length > 0 && lines.contains(r.array, r.offset, r.length);
        }
    }
}
