package dev.logrouter.host.journald;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code type: journald}: the systemd journal, read through {@code journalctl -o json --follow} (syslog-ng's
 * {@code systemd-journal()}, rsyslog's {@code imjournal}). Each entry becomes one event: MESSAGE is MSG, the
 * well-known fields fill HOST, PROGRAM, PID, PRI and the stamp, every other field is a name-value pair under
 * {@code prefix}. The journal cursor of the last entry every sink made durable is kept in
 * {@code <cursor-dir>/<name>.cursor}; a restart resumes after it.
 *
 * <p>Threads: immutable, any thread.
 */
public record JournaldSourceConfig(
        @Option(doc = "Unique source name; also names the cursor file.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "The journalctl binary (systemd's; a bare name is looked up on the PATH).",
                defaultValue = "journalctl")
        String journalctl,
        @Option(doc = "Read the journal files of this directory (journalctl --directory) instead of the system "
                + "journal. Absent = the system journal (journalctl's default: /var/log/journal, /run/log/journal).",
                defaultValue = Option.NONE)
        String directory,
        @Option(doc = "Only the entries of these systemd units (journalctl --unit, one per unit). Empty = all.",
                defaultValue = "[]")
        List<String> units,
        @Option(doc = "journalctl matches, FIELD=value each (e.g. _TRANSPORT=kernel); matches of different fields "
                + "must all hold, of one field any; \"+\" between matches is OR. Empty = all entries.",
                defaultValue = "[]")
        List<String> match,
        @Option(doc = "Where the very first start reads from, when there is no cursor file yet: beginning (every "
                + "entry the journal holds) or end (only entries written from now on). A saved cursor always wins.",
                defaultValue = "end")
        StartAt startAt,
        @Option(doc = "Directory of the cursor file <name>.cursor (created when missing).",
                defaultValue = "data/checkpoints")
        String cursorDir,
        @Option(doc = "How often the cursor of the last entry every sink made durable is written to the cursor "
                + "file (also at stop).", defaultValue = "1s")
        TimeSpan cursorInterval,
        @Option(doc = "Longest MESSAGE (and longest other field value) taken; longer ones are cut to it and "
                + "counted (truncated).", defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Prefix of the name-value pairs made of the entry's other fields (syslog-ng's prefix(): "
                + "_SYSTEMD_UNIT becomes .journald._SYSTEMD_UNIT). May be empty.", defaultValue = ".journald.")
        String prefix) implements SourceConfig {

    /** Where a source without a cursor file starts reading. */
    public enum StartAt { beginning, end }

    private static final Pattern MATCH = Pattern.compile("\\+|[A-Z0-9_]+=.*", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]+");

    public JournaldSourceConfig {
        if (name != null && !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name of a journald source names its cursor file: letters, digits, "
                    + "'_', '.', '@' and '-' only, got '" + name + "'");
        }
        if (journalctl != null && journalctl.isBlank()) {
            throw new IllegalArgumentException("journalctl must name the binary");
        }
        if (directory != null && directory.isBlank()) {
            throw new IllegalArgumentException("directory must not be empty (leave it out for the system journal)");
        }
        if (units != null && units.stream().anyMatch(u -> u == null || u.isBlank())) {
            throw new IllegalArgumentException("units must not hold empty names");
        }
        if (match != null) {
            for (String m : match) {
                if (m == null || !MATCH.matcher(m).matches()) {
                    throw new IllegalArgumentException("a journald match is FIELD=value (FIELD in upper case, "
                            + "digits and '_') or \"+\", got '" + m + "'");
                }
            }
        }
        if (cursorDir != null && cursorDir.isBlank()) {
            throw new IllegalArgumentException("cursor-dir must not be empty");
        }
        if (cursorInterval != null && (cursorInterval.nanos() < 1_000_000L
                || cursorInterval.nanos() > 3_600_000_000_000L)) {
            throw new IllegalArgumentException("cursor-interval must be 1ms..1h, got " + cursorInterval);
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-message-size must be 64B..64MiB, got " + maxMessageSize);
        }
    }

    /** The cursor file: {@code <cursor-dir>/<name>.cursor}. */
    public Path cursorFile() {
        return Path.of(cursorDir).resolve(name + ".cursor");
    }

    /** {@code check-config}: a named directory must exist (journalctl would exit at once). */
    @Override
    public void check() {
        if (directory != null && !Files.isDirectory(Path.of(directory))) {
            throw new IllegalArgumentException("journald source '" + name + "': directory " + directory
                    + " is not a directory");
        }
    }

    /** Sources publish with no sinks: the parse workers set each event's sinks from the routes. */
    @Override
    public Source create(SourceContext ctx) {
        return new JournaldSource(this, ctx.ring(), ctx.completedSequence(), ctx.index(), ctx.zone(), ctx.metrics());
    }

    /** Its events are raw: MESSAGE is MSG, the header fields come from the entry. */
    @Override
    public byte formatHint() {
        return LogEvent.FORMAT_RAW;
    }
}
