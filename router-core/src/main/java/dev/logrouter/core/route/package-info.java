/**
 * Routes from sources to sinks, compiled once into one 64-bit sink mask per source that the publisher
 * stamps on each event.
 */
package dev.logrouter.core.route;
