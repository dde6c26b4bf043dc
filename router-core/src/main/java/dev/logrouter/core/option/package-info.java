/**
 * How an option is declared and what its values are: {@link dev.logrouter.core.option.Option} (doc and default,
 * once per record component), the value types {@link dev.logrouter.core.option.ByteSize} ({@code 64KiB}) and
 * {@link dev.logrouter.core.option.TimeSpan} ({@code 250ms}), and {@link dev.logrouter.core.option.ConfigException}.
 * The bottom of the core: every module's configuration records use it, and it imports nothing of the core.
 */
package dev.logrouter.core.option;
