package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;

/**
 * One compiled template function call ({@code $(format-json --scope rfc5424)}): its arguments were parsed
 * when the template was compiled; {@link #render} appends its output for one event and allocates nothing
 * once its scratch buffers are warm.
 *
 * <p>Threads: an instance keeps scratch state and belongs to the one thread that owns its {@link Template};
 * {@link #copy()} gives another thread its own.
 */
public interface TemplateFunction {

    /** Appends the function's output for {@code e} to {@code out}. */
    void render(LogEvent e, ByteBuilder out);

    /** A fresh instance with the same compiled arguments and its own scratch state. */
    TemplateFunction copy();
}
