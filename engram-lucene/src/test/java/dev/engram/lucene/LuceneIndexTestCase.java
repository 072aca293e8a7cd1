package dev.engram.lucene;

import dev.engram.Scope;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The frame of the tests that work on one index per test: a fresh {@link LuceneSearchIndex} of
 * {@value #DIM} dimensions in a temporary directory, opened before each test and closed after it.
 */
abstract class LuceneIndexTestCase {
  static final int DIM = 4;
  static final Scope ALICE = Scope.user("alice");

  @TempDir Path dir;
  LuceneSearchIndex index;

  @BeforeEach
  final void openIndex() {
    index = LuceneSearchIndex.open(dir, DIM);
  }

  @AfterEach
  final void closeIndex() {
    index.close();
  }
}
