package dev.logrouter.core.config;

/**
 * A module's contribution to the configuration: the YAML {@code type:} names of its sources, sinks and chain steps
 * and the records they bind to, and its top-level sections. Each module lists its providers in
 * {@code META-INF/services/dev.logrouter.core.config.ComponentProvider}; {@link ComponentRegistry#load()} finds them
 * with {@link java.util.ServiceLoader}. A new sink type is one package plus one {@code registry.sink(...)} line in its
 * module's provider.
 *
 * <p>Threads: {@link #register} is called once, on the thread that loads the registry.
 */
public interface ComponentProvider {

    /**
     * Where this provider's types come in listings and the reference: providers register in ascending order (data
     * flow: core steps 0, sources 10, PatternDB 20, sinks 30 and up, the server 100).
     */
    int order();

    /** Registers this module's types and sections. */
    void register(ComponentRegistry registry);
}
