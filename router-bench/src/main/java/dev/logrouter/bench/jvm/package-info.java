/**
 * {@code JvmSample}: the garbage collection and heap allocation of a running router, sampled by the benchmark
 * harness before and after the measured load (local attach, the JVM's own {@code java.lang} MBeans).
 */
package dev.logrouter.bench.jvm;
