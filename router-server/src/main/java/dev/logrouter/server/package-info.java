/**
 * The composition root: command line ({@code run}, {@code check-config}, {@code config-reference}),
 * the known source and sink types, and {@link dev.logrouter.server.Router}, which assembles
 * sources → ring → stages → sinks and stops them in that order.
 */
package dev.logrouter.server;
