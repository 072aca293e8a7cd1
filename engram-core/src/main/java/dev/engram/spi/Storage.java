package dev.engram.spi;

import java.io.Closeable;

/**
 * A backend: a system of record and the search index derived from it, opened together and closed together.
 * Closing the storage closes both and releases any lock it holds.
 */
public interface Storage extends Closeable {
  MemoryStore records();

  SearchIndex index();
}
