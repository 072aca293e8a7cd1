package dev.engram.bench.server;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The CPU time this process has used, all threads, user and system (the JIT's and the garbage
 * collector's included): what the server's work costs, measured apart from how long it waited for a
 * core on a shared machine.
 */
final class ProcessCpu {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private ProcessCpu() {}

  /** CPU nanoseconds used by this process so far. */
  static long nanos() {
    return OS.getProcessCpuTime();
  }

  /**
   * Milliseconds the JIT compiler threads have spent compiling so far (the JVM's own estimate), 0
   * where the JVM does not say: how much of a phase's CPU went to compiling code rather than
   * running it.
   */
  static long compileMillis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported()
        ? JIT.getTotalCompilationTime()
        : 0;
  }
}
