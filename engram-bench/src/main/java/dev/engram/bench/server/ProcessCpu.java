package dev.engram.bench.server;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The CPU time this process has used, all threads, user and system (the JIT's and the garbage
 * collector's included): what the server's work costs, measured apart from how long it waited for a
 * core on a shared machine. Linux counts it in clock ticks (10 ms), so a block must run well over
 * that for its figure to mean anything.
 */
final class ProcessCpu {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private ProcessCpu() {}

  /** CPU nanoseconds used by this process so far. */
  private static long nanos() {
    return OS.getProcessCpuTime();
  }

  /** A mark from which to measure what a phase spent. */
  static Mark mark() {
    return new Mark(nanos(), compileMillis());
  }

  /**
   * This process's CPU time and its JIT compiler's time at one moment.
   *
   * @param cpuNanos CPU nanoseconds used so far
   * @param compileMillis milliseconds spent compiling so far
   */
  record Mark(long cpuNanos, long compileMillis) {
    /** CPU seconds this process has used since the mark. */
    double cpuSeconds() {
      return (nanos() - cpuNanos) / 1e9;
    }

    /** Seconds the JIT compiler has spent compiling since the mark. */
    double jitSeconds() {
      return (compileMillis() - compileMillis) / 1e3;
    }
  }

  /**
   * Milliseconds the JIT compiler threads have spent compiling so far (the JVM's own estimate), 0
   * where the JVM does not say: how much of a phase's CPU went to compiling code rather than
   * running it.
   */
  private static long compileMillis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported()
        ? JIT.getTotalCompilationTime()
        : 0;
  }
}
