package dev.logrouter.netty.unix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The socket file of a Unix source at its {@code path}. Before the bind ({@link #prepare}): the directory must exist;
 * a socket left there (by a previous run, or another daemon) is removed, as syslog-ng and rsyslog do; anything else —
 * a regular file, a directory, a symbolic link such as systemd's {@code /dev/log} — is refused, never removed. After
 * the bind ({@link #bound}): {@code perm}, {@code owner} and {@code group} are applied. At stop ({@link #remove}) the
 * socket is removed if it is still the one this source bound (not one another process put there since).
 *
 * <p>Threads: the controlling thread (start and stop of the source).
 */
final class UnixSocketFile {

    /** Longest path a {@code sockaddr_un} holds (108 bytes with the terminating NUL). */
    static final int MAX_PATH_BYTES = 107;
    /** The file type bits of {@code unix:mode} ({@code S_IFMT}) and the socket type ({@code S_IFSOCK}). */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    private final String source;
    private final Path path;
    private final Set<PosixFilePermission> perm;
    private final String owner;
    private final String group;
    /** The bound socket's file key (device and inode), or null before the bind. */
    private Object boundKey;

    UnixSocketFile(String source, String path, String perm, String owner, String group) {
        this.source = source;
        this.path = Path.of(path).toAbsolutePath();
        this.perm = parsePerm(perm);
        this.owner = owner;
        this.group = group;
    }

    Path path() {
        return path;
    }

    /** Checks a {@code path} option: not empty, short enough for a {@code sockaddr_un}; throws naming the problem. */
    static void checkPath(String path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("path must name the socket file, e.g. /dev/log");
        }
        if (path.startsWith("@") || path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path must be a file system path (abstract sockets are not supported), "
                    + "got " + path);
        }
        int bytes = path.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("path is " + bytes + " bytes, longer than a Unix socket address holds ("
                    + MAX_PATH_BYTES + "): " + path);
        }
    }

    /** Parses {@code perm}: an octal mode such as {@code 0666} (permission bits only, at most 0777). */
    static Set<PosixFilePermission> parsePerm(String perm) {
        if (perm == null || !perm.matches("0?[0-7]{1,3}")) {
            throw new IllegalArgumentException("perm must be an octal mode such as 0666, at most 0777, got "
                    + perm);
        }
        int mode = Integer.parseInt(perm, 8);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, from 0400 down
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    /**
     * Before the bind: the directory exists; a socket at the path is removed; anything else there is refused.
     * Throws IOException naming the path.
     */
    void prepare() throws IOException {
        Path dir = path.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IOException("source " + source + ": the directory of path " + path + " does not exist; create "
                    + "it first (the socket file is created in it)");
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return;
        }
        if ((mode & S_IFMT) != S_IFSOCK) {
            throw new IOException("source " + source + ": path " + path + " exists and is " + kind(mode) + ", not a "
                    + "socket: refusing to replace it" + (Files.isSymbolicLink(path) ? " (on systemd hosts /dev/log "
                    + "is journald's link: see docs/sources/unix.md)" : "") + "; remove it or choose another path");
        }
        Files.deleteIfExists(path); // a stale socket: nobody can be served through it once we bind anew
    }

    private static String kind(int mode) {
        return switch (mode & S_IFMT) {
            case 0100000 -> "a regular file";
            case 0040000 -> "a directory";
            case 0120000 -> "a symbolic link";
            case 0010000 -> "a FIFO";
            case 0020000, 0060000 -> "a device";
            default -> "not a socket";
        };
    }

    /** After the bind: applies perm, owner and group, and remembers which file is ours. */
    void bound() throws IOException {
        boundKey = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        // by path (chmod, chown): the JDK's no-follow variants open the file first, which a socket refuses (ENXIO)
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        UserPrincipalLookupService users = path.getFileSystem().getUserPrincipalLookupService();
        try {
            if (owner != null) {
                view.setOwner(users.lookupPrincipalByName(owner));
            }
            if (group != null) {
                GroupPrincipal g = users.lookupPrincipalByGroupName(group);
                view.setGroup(g);
            }
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("source " + source + ": no such user or group: " + e.getName(), e);
        }
        view.setPermissions(perm);
    }

    /** At stop: removes the socket if it is still the one bound. Idempotent; failures are ignored (stop goes on). */
    void remove() {
        Object key = boundKey;
        if (key == null) {
            return;
        }
        boundKey = null;
        try {
            Object now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            if (Objects.equals(now, key)) {
                Files.deleteIfExists(path);
            }
        } catch (IOException gone) {
            // already removed (Netty removes a stream listener's file when it closes it)
        }
    }
}
