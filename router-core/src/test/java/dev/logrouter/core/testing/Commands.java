package dev.logrouter.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an external command for a test fixture ({@code openssl}, a server's setup tools) and fails with its output
 * when it does not succeed.
 *
 * <p>Threads: stateless.
 */
public final class Commands {

    private Commands() {
    }

    /** Runs {@code cmd} with no input; throws with its output when it exits non-zero or runs over 5 minutes. */
    public static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}
