package dev.engram.embedded;

import dev.engram.StorageException;
import dev.engram.lucene.LuceneSearchIndex;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the Lucene index of a data directory, replacing a damaged one with an empty index. The index is derived
 * from the record, so discarding it loses nothing: the engine rebuilds it when it opens.
 *
 * <p>{@link LuceneSearchIndex#open} already replaces an index it cannot read; this is the second line of defence,
 * for damage that makes the open itself fail (the failure's cause is a corrupt, truncated or missing index file).
 * Any other failure, such as a lock held by another writer, is passed on unchanged.
 */
final class IndexOpener {
  private static final Logger LOG = LoggerFactory.getLogger(IndexOpener.class);

  private IndexOpener() {}

  static LuceneSearchIndex open(Path indexDir, int dimension) {
    try {
      return LuceneSearchIndex.open(indexDir, dimension);
    } catch (RuntimeException e) {
      if (!isDamage(e)) {
        throw e;
      }
      LOG.warn("the search index in {} is damaged ({}); recreating it empty, it will be rebuilt from the record",
          indexDir, e.toString());
      deleteRecursively(indexDir);
      return LuceneSearchIndex.open(indexDir, dimension);
    }
  }

  /** True if {@code e} was caused by unreadable or missing index files. */
  static boolean isDamage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CorruptIndexException || t instanceof IndexFormatTooOldException
          || t instanceof IndexFormatTooNewException || t instanceof EOFException
          || t instanceof NoSuchFileException || t instanceof FileNotFoundException) {
        return true;
      }
    }
    return false;
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("could not delete the damaged search index " + dir + ": " + e.getMessage(), e);
    }
  }
}
