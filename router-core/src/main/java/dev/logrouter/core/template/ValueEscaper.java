package dev.logrouter.core.template;

/**
 * How a template writes a substituted value (a macro or a field) into its output. Literal text of the
 * template is never escaped.
 *
 * <p>Threads: implementations are stateless and shared.
 */
@FunctionalInterface
public interface ValueEscaper {

    /** Writes the value unchanged. */
    ValueEscaper NONE = (out, src, off, len) -> out.append(src, off, len);

    void append(ByteBuilder out, byte[] src, int off, int len);
}
