package dev.logrouter.host.journald;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real journal files for the tests: entries written in the journal export format and turned into a
 * {@code .journal} file by systemd's own {@code systemd-journal-remote} (Debian package
 * {@code systemd-journal-remote}), which appends when the file exists. Tests skip, naming the package, when it is
 * not installed; journalctl (package systemd) must be there too.
 *
 * <p>Threads: the test thread.
 */
final class JournalFiles {

    static final String BOOT_ID = "0123456789abcdef0123456789abcdef";
    /** 2023-11-14T22:13:20Z: entry stamps count from here. */
    static final long BASE_MICROS = 1_700_000_000_000_000L;

    private static final List<Path> REMOTE = List.of(Path.of("/usr/lib/systemd/systemd-journal-remote"),
            Path.of("/lib/systemd/systemd-journal-remote"));

    private JournalFiles() {
    }

    /** Skips the test unless systemd-journal-remote and journalctl are installed. */
    static Path assumeTools() {
        Path remote = REMOTE.stream().filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(remote != null, "systemd-journal-remote is not installed: the journald tests build "
                + "their journal files with it (Debian package systemd-journal-remote; .ci/run installs it)");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/journalctl"))
                        || Files.isExecutable(Path.of("/bin/journalctl")),
                "journalctl is not installed (Debian package systemd)");
        return remote;
    }

    /** One entry: its realtime stamp and fields in order; a value is a String or a byte[] (binary). */
    record Entry(long realtimeMicros, List<Object[]> fields) {

        static Entry at(long secondsAfterBase, Object... nameValues) {
            List<Object[]> f = new ArrayList<>();
            for (int i = 0; i < nameValues.length; i += 2) {
                f.add(new Object[] {nameValues[i], nameValues[i + 1]});
            }
            return new Entry(BASE_MICROS + secondsAfterBase * 1_000_000L + 123_456, f);
        }
    }

    /** Appends entries to {@code file} (created when missing; its name must end in .journal). */
    static void append(Path file, List<Entry> entries) throws IOException, InterruptedException {
        Path remote = assumeTools();
        ByteArrayOutputStream export = new ByteArrayOutputStream();
        for (Entry e : entries) {
            field(export, "__REALTIME_TIMESTAMP", String.valueOf(e.realtimeMicros()));
            // monotonic time grows with the stamps: journalctl orders the files of one boot by it
            field(export, "__MONOTONIC_TIMESTAMP", String.valueOf(e.realtimeMicros() - BASE_MICROS + 1_000_000));
            field(export, "_BOOT_ID", BOOT_ID);
            for (Object[] f : e.fields()) {
                field(export, (String) f[0], f[1]);
            }
            export.write('\n');
        }
        Files.createDirectories(file.getParent());
        Process p = new ProcessBuilder(remote.toString(), "--output=" + file, "-").redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(export.toByteArray());
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("systemd-journal-remote failed: " + out);
        }
    }

    /** A field in export format: NAME=value, or NAME, a little-endian 64-bit length and the bytes (binary). */
    private static void field(ByteArrayOutputStream out, String name, Object value) throws IOException {
        byte[] v = value instanceof byte[] b ? b : ((String) value).getBytes(StandardCharsets.UTF_8);
        boolean binary = value instanceof byte[];
        for (byte c : v) {
            binary |= c == '\n';
        }
        out.write(name.getBytes(StandardCharsets.US_ASCII));
        if (binary) {
            out.write('\n');
            out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v.length).array());
            out.write(v);
        } else {
            out.write('=');
            out.write(v);
        }
        out.write('\n');
    }
}
