/**
 * Small reusable building blocks shared by stages: zero-copy and decoding {@link java.lang.CharSequence} views
 * of byte ranges, and the step-bounded sequence that keeps a regex from backtracking without end.
 */
package dev.logrouter.core.util;
