package dev.logrouter.host.file;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;

/**
 * Splits a file glob into the directory a scan starts from (its longest prefix without glob characters) and the
 * matcher of whole paths ({@code java.nio} glob syntax: {@code *} within a name, {@code **} across directories,
 * {@code ?}, {@code [ab]}, {@code {a,b}}), with the depth a scan must walk.
 *
 * <p>Threads: immutable results; any thread.
 */
final class Globs {

    /** A parsed glob: scan {@code base} down to {@code maxDepth} levels, keep the paths {@code matcher} accepts. */
    record Glob(String text, Path base, PathMatcher matcher, int maxDepth) {
        boolean matches(Path p) {
            return matcher.matches(p);
        }
    }

    private Globs() {
    }

    /** Parses {@code glob} (absolute, or relative to the working directory); IllegalArgumentException if bad. */
    static Glob parse(String glob) {
        if (glob == null || glob.isBlank()) {
            throw new IllegalArgumentException("an empty path glob");
        }
        String absGlob = glob.startsWith("/") ? glob : Paths.get("").toAbsolutePath() + "/" + glob;
        Path base = Paths.get("/");
        int depth = 0;
        boolean inBase = true;
        boolean recursive = false;
        for (String part : absGlob.substring(1).split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            boolean special = part.chars().anyMatch(c -> "*?[]{}\\".indexOf(c) >= 0);
            if (inBase && !special) {
                base = base.resolve(part);
                continue;
            }
            inBase = false;
            depth++;
            if (part.contains("**")) {
                recursive = true;
            }
        }
        if (inBase) { // no glob character: one file; its directory is scanned
            depth = 1;
            base = base.getParent() == null ? base : base.getParent();
        }
        PathMatcher matcher;
        try {
            matcher = FileSystems.getDefault().getPathMatcher("glob:" + absGlob);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad path glob " + glob + ": " + e.getMessage());
        }
        return new Glob(glob, base, matcher, recursive ? Integer.MAX_VALUE : depth);
    }
}
