package dev.logrouter.core.config;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Configuration of one source. The YAML {@code type} key selects the implementing record; source
 * modules register their types with {@link ConfigLoader}.
 *
 * <p>Threads: immutable, any thread.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface SourceConfig {

    /** Unique name: names the source's counters and is used in routes' {@code from}. */
    String name();

    /**
     * The longest message this source accepts, or null when it sets no such limit (the pipeline sizes its default
     * {@code max-field-length} from it). Source records with a {@code maxMessageSize} component implement it.
     */
    default ByteSize maxMessageSize() {
        return null;
    }
}
