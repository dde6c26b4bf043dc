package dev.logrouter.host;

import dev.logrouter.core.config.ComponentProvider;
import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.host.file.FileSourceConfig;

/**
 * The host's own logs: {@code type: file} (files tailed through rotation, with checkpoints). Listed in
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
                .renamed(SourceConfig.class, "wildcard-file", "syslog-ng's wildcard-file() is type: file with "
                        + "paths: [glob] (** allowed)")
                .renamed(SourceConfig.class, "imfile", "rsyslog's imfile is type: file (format: raw, program = Tag)");
    }
}
