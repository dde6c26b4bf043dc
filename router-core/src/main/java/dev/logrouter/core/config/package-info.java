/**
 * The configuration as a whole, and the registry of component types: {@link dev.logrouter.core.config.RouterConfig}
 * (the core's keys, and the top-level sections the modules register), routes and pipeline options;
 * {@link dev.logrouter.core.config.ComponentRegistry}, filled by each module's
 * {@link dev.logrouter.core.config.ComponentProvider} through {@link java.util.ServiceLoader};
 * {@link dev.logrouter.core.config.ConfigLoader}, which binds a YAML file to those records and reports unknown keys,
 * unknown types (listing the registered ones) and bad values with file, line and YAML path; and
 * {@link dev.logrouter.core.config.ConfigReference}, the reference generated from the declarations. It knows the
 * sources', steps' and sinks' configuration records; the routes and the pipeline, which put them together, read it.
 */
package dev.logrouter.core.config;
