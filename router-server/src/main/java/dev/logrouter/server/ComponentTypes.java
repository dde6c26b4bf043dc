package dev.logrouter.server;

import dev.logrouter.core.config.ComponentRegistry;
import dev.logrouter.core.config.ConfigLoader;

/**
 * The component types of this build: every {@link dev.logrouter.core.config.ComponentProvider} on the class path
 * (the core's steps, the network sources, PatternDB, each sink module, the server's {@code monitoring:}).
 *
 * <p>Threads: immutable after class initialisation.
 */
public final class ComponentTypes {

    /** The registry of the class path, loaded once. */
    public static final ComponentRegistry REGISTRY = ComponentRegistry.load();

    private ComponentTypes() {
    }

    /** The reference tables of every option, as printed in {@code docs/reference.md}. */
    public static String reference() {
        return REGISTRY.reference();
    }

    public static ConfigLoader loader() {
        return REGISTRY.loader();
    }
}
