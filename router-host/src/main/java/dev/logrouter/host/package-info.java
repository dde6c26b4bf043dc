/**
 * Local intake: the sources that collect a host's own logs rather than serve the network. {@code file}
 * ({@link dev.logrouter.host.file}) tails files through rotation and keeps its read positions in a checkpoint file
 * that advances only as far as every sink made the lines durable.
 *
 * <pre>
 *  files ─read (one thread per source)─▶ lines ─claim/publish─▶ ring ─▶ parse workers ─▶ sinks
 *                                                 ▲                                       │
 *                      checkpoint file ◀─advance──┴────────── completed sequence ◀────────┘
 * </pre>
 */
package dev.logrouter.host;
