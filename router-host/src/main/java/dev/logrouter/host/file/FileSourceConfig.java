package dev.logrouter.host.file;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;

import java.nio.charset.Charset;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code type: file}: tails the files that {@code paths} globs match (syslog-ng's {@code wildcard-file()}, rsyslog's
 * {@code imfile}), through rotation, one message per line (or per multi-line message), with read positions kept
 * in a checkpoint file that advances only to what every sink made durable.
 *
 * <p>Threads: immutable.
 */
public record FileSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Globs of the files to read (/var/log/app/*.log; ** crosses directories; {a,b} and [ab] as "
                + "in java.nio's glob syntax). Files and directories that appear later are picked up.",
                defaultValue = Option.REQUIRED)
        List<String> paths,
        @Option(doc = "Globs of files not to read, even when paths match them (*.gz).", defaultValue = "[]")
        List<String> exclude,
        @Option(doc = "Where to start in a file found at the very first start (no checkpoint file yet): beginning "
                + "or end. Files that appear later, or while the router was down, are read from their beginning.",
                defaultValue = "beginning")
        StartAt startAt,
        @Option(doc = "How changes are noticed: inotify (the JDK WatchService; a full rescan every 10 poll "
                + "intervals as well) or poll (a rescan every poll-interval).", defaultValue = "inotify")
        Monitor monitor,
        @Option(doc = "How often files are rescanned for new files, growth, rotation and truncation (syslog-ng's "
                + "follow-freq).", defaultValue = "1s")
        TimeSpan pollInterval,
        @Option(doc = "Directory of the checkpoint file <name>.checkpoint (read positions, written atomically).",
                defaultValue = "data/checkpoints")
        String checkpointDir,
        @Option(doc = "How often the checkpoint advances to what the sinks made durable and is written (when it "
                + "changed); also at a clean stop.", defaultValue = "1s")
        TimeSpan checkpointInterval,
        @Option(doc = "Longest message; a longer line is cut to this size, the rest of it skipped, and counted "
                + "(truncatedLines).", defaultValue = "64KiB")
        ByteSize maxLineSize,
        @Option(doc = "Character set of the files: UTF-8 (passed through), ISO-8859-1, UTF-16LE, UTF-16BE, or another "
                + "the JDK knows whose newline is the byte 0x0A; converted to UTF-8.", defaultValue = "UTF-8")
        String encoding,
        @Option(doc = "none (one line, one message), indented (lines starting with a space or tab continue the "
                + "message: stack traces) or regexp (a line matching multi-line-prefix starts a message, others "
                + "continue it).", defaultValue = "none")
        MultiLine multiLine,
        @Option(doc = "With multi-line: regexp, the regular expression a message's first line starts with.",
                defaultValue = Option.NONE)
        String multiLinePrefix,
        @Option(doc = "A multi-line message, or a last line without its newline, is delivered when its file did "
                + "not grow for this long (and when the file is closed after a rotation or deletion).",
                defaultValue = "2s")
        TimeSpan multiLineTimeout,
        @Option(doc = "raw (the line is MSG; HOST is host, PROGRAM is program: syslog-ng's file() with "
                + "flags(no-parse), rsyslog's imfile), rfc3164, rfc5424 or auto (syslog lines, as syslog-ng's "
                + "file() parses them by default), or json (a JSON object as a kafka sink writes it).",
                defaultValue = "raw")
        FileFormat format,
        @Option(doc = "With format: raw, PROGRAM of every message; absent = the file's name without its "
                + "directory.", defaultValue = Option.NONE)
        String program,
        @Option(doc = "With format: raw, HOST of every message; absent = this machine's host name.",
                defaultValue = Option.NONE)
        String host,
        @Option(doc = "With format: raw, the facility of every message (syslog-ng's default-facility).",
                defaultValue = "user")
        String facility,
        @Option(doc = "With format: raw, the severity of every message (syslog-ng's default-priority).",
                defaultValue = "notice")
        String severity,
        @Option(doc = "Most files open at once: beyond it, files with nothing to read are closed (their position "
                + "kept) and reopened in turn when they grow.", defaultValue = "1024")
        Integer maxOpenFiles,
        @Option(doc = "How long a file that was rotated away or deleted is kept open after it stopped growing "
                + "(Fluent Bit's Rotate_Wait): what a writer still appends to it is read.", defaultValue = "5s")
        TimeSpan rotateWait,
        @Option(doc = "How much is read from one file before the next file gets its turn.", defaultValue = "64KiB")
        ByteSize readSize) implements SourceConfig {

    /** {@code start-at}. */
    public enum StartAt { beginning, end }

    /** {@code monitor}. */
    public enum Monitor { inotify, poll }

    /** {@code multi-line}. */
    public enum MultiLine { none, indented, regexp }

    public FileSourceConfig {
        if (paths != null) {
            if (paths.isEmpty()) {
                throw new IllegalArgumentException("paths must name at least one glob");
            }
            for (String p : paths) {
                Globs.parse(p);
            }
        }
        if (exclude != null) {
            for (String p : exclude) {
                Globs.parse(p);
            }
        }
        if (encoding != null) {
            Charset cs = Charset.forName(encoding); // an unknown name fails here, with the JDK's message
            String n = cs.name();
            boolean asciiCompatible = java.util.Arrays.equals("a\n".getBytes(cs), new byte[] {'a', '\n'});
            if (!asciiCompatible && !n.equals("UTF-16LE") && !n.equals("UTF-16BE")) {
                throw new IllegalArgumentException("encoding " + encoding + " is not supported: use UTF-16LE or "
                        + "UTF-16BE for UTF-16 (by its byte order), or a charset whose newline is the byte 0x0A");
            }
        }
        if (multiLine == MultiLine.regexp) {
            if (multiLinePrefix == null) {
                throw new IllegalArgumentException("multi-line: regexp needs multi-line-prefix");
            }
            Pattern.compile(multiLinePrefix);
        }
        if (maxLineSize != null && (maxLineSize.bytes() < 16 || maxLineSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-line-size must be 16B..64MiB, got " + maxLineSize);
        }
        if (readSize != null && (readSize.bytes() < 4096 || readSize.bytes() > 16L << 20)) {
            throw new IllegalArgumentException("read-size must be 4KiB..16MiB, got " + readSize);
        }
        if (maxOpenFiles != null && maxOpenFiles < 1) {
            throw new IllegalArgumentException("max-open-files must be >= 1, got " + maxOpenFiles);
        }
        if (pollInterval != null && (pollInterval.nanos() < 1_000_000L || pollInterval.nanos() > 3_600_000_000_000L)) {
            throw new IllegalArgumentException("poll-interval must be 1ms..1h, got " + pollInterval);
        }
        if (facility != null && SyslogNames.facilityNumber(facility) < 0) {
            throw new IllegalArgumentException("unknown facility " + facility);
        }
        if (severity != null && SyslogNames.severityNumber(severity) < 0) {
            throw new IllegalArgumentException("unknown severity " + severity);
        }
    }

    @Override
    public ByteSize maxMessageSize() {
        return maxLineSize;
    }

    @Override
    public Source create(SourceContext ctx) {
        return new FileSource(this, ctx);
    }

    /** The hint its events carry: {@code format}'s. */
    @Override
    public byte formatHint() {
        return format == null ? LogEvent.FORMAT_AUTO : format.hint();
    }
}
