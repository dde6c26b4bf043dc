package dev.logrouter.core.option;

/**
 * A configuration the router refuses, with a message naming the file, line, YAML path and the fix.
 *
 * <p>Threads: thrown on the thread that loads the configuration.
 */
public final class ConfigException extends Exception {

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
