/**
 * The file sink, last step of the data flow, in two halves:
 *
 * <pre>
 *  ring ─▶ sink-&lt;name&gt; thread: FileEncoder.encode (path template, values escaped; line template) → record
 *   memory:  same thread: FileDelivery.add (record's path → open-file cache, line → that file's buffer)
 *            … FileDelivery.flush (write each dirty buffer, fsync per policy, close idle files)
 *   journal: record → the sink's journal ─▶ deliver-&lt;name&gt; thread: FileDelivery.add … flush, acknowledge
 * </pre>
 */
package dev.logrouter.sinks.file;
