package dev.logrouter.netty.unix;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.netty.Peer;
import io.netty.channel.unix.PeerCredentials;

/**
 * A unix-stream peer's credentials as the name-value pairs syslog-ng sets: {@code .unix.pid}, {@code .unix.uid},
 * {@code .unix.gid} (reserved names: message content cannot forge them, see
 * {@link FieldTable#RESERVED_UNIX_PREFIX}). They are the kernel's {@code SO_PEERCRED} of the connection, read once
 * when it is accepted: the process that connected, as it was then (syslog-ng reads {@code SCM_CREDENTIALS} with each
 * read, which differ only when a connected socket is handed to another process).
 *
 * <p>Threads: stateless.
 */
final class UnixCredentials {

    static final FieldName[] FIELDS = {FieldName.of(FieldTable.RESERVED_UNIX_PREFIX + "pid"),
            FieldName.of(FieldTable.RESERVED_UNIX_PREFIX + "uid"), FieldName.of(FieldTable.RESERVED_UNIX_PREFIX + "gid")};

    private UnixCredentials() {
    }

    /** Sets the connection fields of {@code peer} from {@code c}. */
    static void set(Peer peer, PeerCredentials c) {
        int[] gids = c.gids();
        peer.setFields(FIELDS, new String[]{Integer.toString(c.pid()), Integer.toUnsignedString(c.uid()),
                gids.length > 0 ? Integer.toUnsignedString(gids[0]) : null});
    }
}
