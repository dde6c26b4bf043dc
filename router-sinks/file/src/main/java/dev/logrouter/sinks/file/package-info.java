/**
 * The file sink, last step of the data flow:
 *
 * <pre>
 *  ring ─▶ sink-&lt;name&gt; thread: FileSink.append (path template → open-file cache, line template → that
 *          file's buffer) … FileSink.flush (write each dirty buffer, fsync per policy)
 * </pre>
 */
package dev.logrouter.sinks.file;
