/**
 * The HDFS sink, {@code type: hdfs}, last step of the data flow:
 *
 * <pre>
 *  sink thread: event ─▶ {@link dev.logrouter.sinks.hdfs.HdfsEncoder} (record: relative path from the path template,
 *               values escaped; line from the line template)
 *               ─▶ ({@code buffer: journal}: the sink's journal ─▶ thread deliver-&lt;sink&gt;)
 *               ─▶ {@link dev.logrouter.sinks.hdfs.HdfsDelivery}.add (path → part-file cache, line → that path's
 *               buffer) … flush (per path: one write, hflush/hsync; the batch is taken when all returned;
 *               roll → close + rename *.tmp)
 *  ({@code buffer: memory}: {@link dev.logrouter.sinks.hdfs.HdfsMemorySink} renders the path, asks the delivery for
 *   that path's buffer and renders the line straight into it: no record in between)
 * </pre>
 */
package dev.logrouter.sinks.hdfs;
