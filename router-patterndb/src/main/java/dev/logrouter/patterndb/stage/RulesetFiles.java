package dev.logrouter.patterndb.stage;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Resolves the {@code patterndb.files} entries into paths: a file as is, a directory as is (the loader
 * expands it), a glob ({@code config/patterndb/*.xml}, {@code rules/**.pdb}) into the matching regular files
 * in sorted order. A glob that matches nothing is an error: a typo must not silently load no rules.
 *
 * <p>Threads: stateless; called at start and on reload.
 */
final class RulesetFiles {

    private RulesetFiles() {
    }

    static List<Path> resolve(List<String> entries) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String entry : entries) {
            int glob = firstGlobChar(entry);
            if (glob < 0) {
                Path p = Path.of(entry);
                if (!Files.exists(p)) {
                    throw new IOException("patterndb.files: " + entry + " does not exist (working directory "
                            + Path.of("").toAbsolutePath() + ")");
                }
                out.add(p);
                continue;
            }
            int slash = entry.lastIndexOf('/', glob);
            Path base = slash < 0 ? Path.of("") : Path.of(entry.substring(0, slash + 1));
            String pattern = entry.substring(slash + 1);
            PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            List<Path> found = new ArrayList<>();
            if (Files.isDirectory(base.toString().isEmpty() ? Path.of(".") : base)) {
                Path root = base.toString().isEmpty() ? Path.of(".") : base;
                try (Stream<Path> s = Files.walk(root)) {
                    s.filter(Files::isRegularFile).filter(p -> m.matches(root.relativize(p))).sorted()
                            .forEach(found::add);
                }
            }
            if (found.isEmpty()) {
                throw new IOException("patterndb.files: " + entry + " matches no file (working directory "
                        + Path.of("").toAbsolutePath() + ")");
            }
            out.addAll(found);
        }
        return out;
    }

    private static int firstGlobChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return i;
            }
        }
        return -1;
    }
}
