package dev.engram.spi;

/** A held cross-process scope lock ({@link Storage#lockScope}); closing it releases the lock. */
@FunctionalInterface
public interface ScopeLease extends AutoCloseable {
  /** A lease that holds nothing. */
  ScopeLease NONE = () -> {};

  /** Releases the lock; unchecked failures only. */
  @Override
  void close();
}
