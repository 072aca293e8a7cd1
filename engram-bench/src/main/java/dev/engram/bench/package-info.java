/** <b>Internal.</b> Benchmark harnesses behind {@code engram bench}. Not part of the public API. */
package dev.engram.bench;
