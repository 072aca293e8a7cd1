package dev.engram.sqlite;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The frame of the tests that work on one store per test: a fresh {@link SqliteMemoryStore} in a
 * temporary directory ({@link SqliteMemoryStoreTest#open(Path)}: normal durability, a fixed clock),
 * opened before each test and closed after it. A subclass's own {@code @BeforeEach} methods run
 * after the store is open.
 */
abstract class SqliteStoreTestCase {
  @TempDir Path dir;
  SqliteMemoryStore store;

  @BeforeEach
  final void openStore() {
    store = SqliteMemoryStoreTest.open(dir);
  }

  @AfterEach
  final void closeStore() {
    store.close();
  }
}
