package dev.logrouter.core.config;

import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;

/**
 * A test-only source type ({@code type: tcp}) with one option of each kind the real source configs use:
 * a required name, an integer, a size and a duration. The real source configs live in router-netty.
 *
 * <p>Threads: immutable.
 */
public record TestTcpSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "TCP port.", defaultValue = "514")
        Integer port,
        @Option(doc = "Longest frame accepted.", defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Closes idle connections after this long.", defaultValue = "5s")
        TimeSpan idleTimeout,
        @Option(doc = "Optional TLS key file; absent = plain TCP.", defaultValue = Option.NONE)
        String tlsKey) implements SourceConfig {

    /** A fixture for loading configurations only: core has no source to build. */
    @Override
    public Source create(SourceContext ctx) {
        throw new UnsupportedOperationException("test fixture: configuration loading only");
    }
}
