package dev.logrouter.core.config;

import dev.logrouter.core.option.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code pipeline.max-fields} and {@code pipeline.max-field-length} as an operator writes them: the defaults, the
 * value length that follows the sources' {@code max-message-size}, an explicit length, and refused values.
 */
class FieldLimitsConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of("tcp", TestTcpSourceConfig.class),
            Map.of("file", TestFileSinkConfig.class));

    private RouterConfig load(String sourceOptions, String pipeline) throws ConfigException {
        return loader.load("""
                sources:
                  - {type: tcp, name: a%s}
                  - {type: tcp, name: b}
                pipeline: {%s}
                sinks:
                  - {type: file, name: out, path: /x}
                """.formatted(sourceOptions, pipeline), "limits.yaml");
    }

    @Test
    void byDefaultAThousandFieldsAndValuesAsLongAsTheLargestMessage() throws Exception {
        RouterConfig cfg = load("", "");
        assertThat(cfg.pipeline().fieldCountLimit()).isEqualTo(1000);
        assertThat(cfg.largestMessageSize()).isEqualTo(64 * 1024);
        PipelineConfig resolved = cfg.pipeline().resolveFieldLength(cfg.largestMessageSize());
        assertThat(resolved.fieldLengthLimit()).isEqualTo(64 * 1024);

        // a source that accepts longer messages raises it: a value parsed out of one is never cut
        RouterConfig big = load(", max-message-size: 1MiB", "");
        assertThat(big.pipeline().resolveFieldLength(big.largestMessageSize()).fieldLengthLimit()).isEqualTo(1 << 20);
        // smaller sources do not lower it below 64 KiB (templates may compose longer values)
        RouterConfig small = load(", max-message-size: 2KiB", "");
        assertThat(small.pipeline().resolveFieldLength(2048).fieldLengthLimit()).isEqualTo(64 * 1024);
    }

    @Test
    void explicitLimitsAreKept() throws Exception {
        RouterConfig cfg = load(", max-message-size: 1MiB", "max-fields: 50, max-field-length: 32KiB");
        assertThat(cfg.pipeline().fieldCountLimit()).isEqualTo(50);
        assertThat(cfg.pipeline().resolveFieldLength(cfg.largestMessageSize()).fieldLengthLimit())
                .isEqualTo(32 * 1024);
    }

    @Test
    void nonsenseLimitsAreRefusedWithTheirPath() {
        assertThatThrownBy(() -> load("", "max-fields: 0")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline").hasMessageContaining("max-fields must be 1..1000000");
        assertThatThrownBy(() -> load("", "max-field-length: 3GiB")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("max-field-length must be below 2GiB");
        assertThatThrownBy(() -> load("", "max-field-length: -1")).isInstanceOf(ConfigException.class);
    }
}
