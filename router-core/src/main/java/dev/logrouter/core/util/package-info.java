/**
 * Small reusable building blocks shared by stages: zero-copy and decoding {@link java.lang.CharSequence} views
 * of byte ranges and the one strict UTF-8 decoder behind them, the step-bounded sequence that keeps a regex from
 * backtracking without end, and the GLib-style glob used by filters, value-pairs and the xml parser.
 */
package dev.logrouter.core.util;
