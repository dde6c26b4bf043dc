package dev.logrouter.host;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.host.file.FileSourceConfig;
import dev.logrouter.host.journald.JournaldSourceConfig;

/**
 * The host's own logs: {@code type: file} (files tailed through rotation, with checkpoints) and
 * {@code type: journald} (the systemd journal, through journalctl, with a cursor file). Listed in
 * {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}.
 *
 * <p>Threads: stateless.
 */
public final class HostComponents implements ComponentProvider {

    @Override
    public int order() {
        return 15;
    }

    @Override
    public void register(ComponentRegistry registry) {
        registry.source("file", FileSourceConfig.class)
                .source("journald", JournaldSourceConfig.class)
                .renamed(SourceConfig.class, "wildcard-file", "syslog-ng's wildcard-file() is type: file with "
                        + "paths: [glob] (** allowed)")
                .renamed(SourceConfig.class, "imfile", "rsyslog's imfile is type: file (format: raw, program = Tag)")
                .renamed(SourceConfig.class, "systemd-journal", "syslog-ng's systemd-journal() is type: journald "
                        + "(prefix: .journald. by default, as syslog-ng's)")
                .renamed(SourceConfig.class, "imjournal", "rsyslog's imjournal is type: journald (its state file "
                        + "is cursor-dir/<name>.cursor)");
    }
}
