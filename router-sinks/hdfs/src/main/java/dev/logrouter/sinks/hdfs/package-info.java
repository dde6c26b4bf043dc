/**
 * The HDFS sink, last step of the data flow:
 *
 * <pre>
 *  ring ─▶ sink-&lt;name&gt; thread: HdfsSink.append (path template → part-file cache, line template → that path's
 *          buffer) … HdfsSink.flush (per path: write, hflush/hsync; the batch is written when all returned;
 *          roll → close + rename *.tmp)
 * </pre>
 */
package dev.logrouter.sinks.hdfs;
