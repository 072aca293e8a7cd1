package dev.engram.bench.server;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this process has used, all threads, user and system (the JIT's and the garbage
 * collector's included): what the server's work costs, measured apart from how long it waited for a
 * core on a shared machine.
 */
final class ProcessCpu {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private ProcessCpu() {}

  /** CPU nanoseconds used by this process so far. */
  static long nanos() {
    return OS.getProcessCpuTime();
  }
}
