package dev.logrouter.core.source;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;

/**
 * Configuration of one source. The YAML {@code type} key selects the implementing record (registered by its
 * module's {@link dev.logrouter.core.config.ComponentProvider}); the record builds the source ({@link #create}).
 *
 * <p>Threads: immutable, any thread.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface SourceConfig {

    /** Unique name: names the source's counters and is used in routes' {@code from}. */
    String name();

    /**
     * Builds the source this record configures. Called once, on the thread that assembles the router, before the
     * ring starts; the source binds only in {@link Source#start()}.
     */
    Source create(SourceContext ctx);

    /**
     * Checks what loading the file cannot: files the source will read at start (certificates, keys), so that
     * {@code check-config} reports them. Throws IllegalArgumentException naming the problem. The default has nothing
     * to check.
     */
    default void check() {
    }

    /**
     * The longest message this source accepts, or null when it sets no such limit (the pipeline sizes its default
     * {@code max-field-length} from it). Source records with a {@code maxMessageSize} component implement it.
     */
    default ByteSize maxMessageSize() {
        return null;
    }

    /**
     * The format hint this source stamps on each event it publishes ({@link LogEvent#setSource}: one of the
     * {@code LogEvent.FORMAT_*} values, with {@link LogEvent#FORMAT_NO_HOSTNAME} where the source sets it), so that
     * {@code logrouter test} fills a sample message as this source would. The default: {@link LogEvent#FORMAT_AUTO}.
     */
    default byte formatHint() {
        return LogEvent.FORMAT_AUTO;
    }
}
