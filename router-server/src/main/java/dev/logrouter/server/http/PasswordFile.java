package dev.logrouter.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The users and passwords of a JDK {@code jmxremote.password} file, for HTTP basic authentication: one
 * {@code user password} per line (clear text), or the JDK's salted hashes {@code user salt hash [algorithm]}
 * (Base64 salt and digest of salt followed by the UTF-8 password; algorithm SHA3-512 when left out), which the JDK
 * writes when it hashes a clear-text file. Lines starting with {@code #} and blank lines are skipped.
 *
 * <p>Threads: read once when the listener starts; {@link #matches} is called by HTTP threads and reads only
 * immutable state.
 */
final class PasswordFile {

    private static final String DEFAULT_ALGORITHM = "SHA3-512";

    /** One user's entry: a clear-text password (salt null) or a salted digest. */
    private record Entry(byte[] secret, byte[] salt, String algorithm) {
    }

    private final Map<String, Entry> users;

    private PasswordFile(Map<String, Entry> users) {
        this.users = users;
    }

    /**
     * Reads {@code file}, refusing one readable or writable by group or others (as the JDK does for its password
     * file); throws IllegalArgumentException naming {@code option} and the reason.
     */
    static PasswordFile read(Path file, String option) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(option + " " + file + " is not a readable file");
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (!Collections.disjoint(perms, EnumSet.of(PosixFilePermission.GROUP_READ,
                    PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_WRITE,
                    PosixFilePermission.OTHERS_WRITE))) {
                throw new IllegalArgumentException(option + " " + file + " must be readable by its owner only "
                        + "(chmod 600 " + file + ")");
            }
        } catch (UnsupportedOperationException notPosix) {
            // not a POSIX file system: nothing to check
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": " + e.getMessage(), e);
        }
        Map<String, Entry> users = new HashMap<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                n++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] f = t.split("\\s+");
                Entry e;
                try {
                    e = switch (f.length) {
                        case 2 -> new Entry(f[1].getBytes(StandardCharsets.UTF_8), null, null);
                        case 3, 4 -> {
                            String algorithm = f.length == 4 ? f[3] : DEFAULT_ALGORITHM;
                            MessageDigest.getInstance(algorithm); // unknown: refused now, not at the first request
                            yield new Entry(Base64.getDecoder().decode(f[2]), Base64.getDecoder().decode(f[1]),
                                    algorithm);
                        }
                        default -> throw new IllegalArgumentException("want 'user password' or 'user salt hash "
                                + "algorithm', found " + f.length + " fields");
                    };
                } catch (NoSuchAlgorithmException | IllegalArgumentException ex) {
                    throw new IllegalArgumentException(option + " " + file + " line " + n + ": " + ex.getMessage());
                }
                users.put(f[0], e);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + ": " + e.getMessage(), e);
        }
        return new PasswordFile(Map.copyOf(users));
    }

    /** True when {@code user} is listed with {@code password}; compares in constant time. Any thread. */
    boolean matches(String user, String password) {
        Entry e = users.get(user);
        if (e == null) {
            return false;
        }
        byte[] given = password.getBytes(StandardCharsets.UTF_8);
        if (e.salt() != null) {
            try {
                MessageDigest d = MessageDigest.getInstance(e.algorithm());
                d.update(e.salt());
                given = d.digest(given);
            } catch (NoSuchAlgorithmException impossible) {
                return false; // checked when read
            }
        }
        return MessageDigest.isEqual(given, e.secret());
    }
}
