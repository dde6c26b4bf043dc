package dev.logrouter.server;

/**
 * Installs SIGTERM/SIGINT handlers that run a clean stop (and SIGHUP/SIGUSR1 handlers: reload, reopen), so that the process can exit 0 after it
 * (a JVM shutdown hook alone would make the exit status 143). Falls back to a shutdown hook where
 * {@code sun.misc.Signal} is unavailable.
 *
 * <p>Threads: the handler runs on a JVM signal thread; it starts the stop on a new thread so that a
 * second signal is still delivered.
 */
final class Signals {

    private Signals() {
    }

    /**
     * Runs {@code action} on a new thread each time the signal {@code name} ({@code HUP}, {@code USR1}) arrives;
     * false where signals cannot be handled (the JMX operations and the commands still work).
     */
    @SuppressWarnings("removal")
    static boolean on(String name, Runnable action) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                Thread t = new Thread(action, "signal-" + name.toLowerCase(java.util.Locale.ROOT));
                t.setDaemon(true);
                t.start();
            });
            return true;
        } catch (Throwable e) {
            return false;
        }
    }

    @SuppressWarnings("removal")
    static void onTermination(Runnable stop) {
        Runnable once = new Runnable() {
            private boolean ran;

            @Override
            public synchronized void run() {
                if (!ran) {
                    ran = true;
                    Thread t = new Thread(stop, "stop");
                    t.setDaemon(false);
                    t.start();
                }
            }
        };
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), sig -> once.run());
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sig -> once.run());
        } catch (Throwable e) {
            Runtime.getRuntime().addShutdownHook(new Thread(stop, "stop"));
        }
    }
}
