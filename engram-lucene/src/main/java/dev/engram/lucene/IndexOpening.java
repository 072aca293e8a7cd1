package dev.engram.lucene;

import dev.engram.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the Lucene files of an index directory, and sets a damaged index aside. An existing index
 * is kept only if it passes {@link #problem}: it opens, every file's checksum is right (Lucene's
 * {@code checkIntegrity}, which reads the whole index once), its vectors have the expected
 * dimension, and its {@code write.lock} is empty (Lucene never writes into it, and refuses to
 * commit once it changed). Otherwise, or if opening the writer fails for any reason but a lock held
 * by another writer, the directory is set aside ({@link #setAside}) and an empty index is created
 * there; the engine rebuilds it from the record.
 */
final class IndexOpening {
  private static final Logger LOG = LoggerFactory.getLogger(IndexOpening.class);

  /** The suffix of the sibling directory a damaged index is moved to. */
  static final String SET_ASIDE_SUFFIX = ".broken";

  private IndexOpening() {}

  /** The open Lucene objects of one index directory. */
  record Handles(Directory directory, IndexWriter writer, SearcherManager searchers) {
    /** Closes all three; the first failure is thrown with the others suppressed. */
    void close() throws IOException {
      IOUtils.close(searchers, writer, directory);
    }

    /** Closes all three without committing, ignoring failures: for a writer known to be damaged. */
    void closeDamaged() {
      try {
        writer.rollback();
      } catch (IOException | RuntimeException e) {
        LOG.debug("rolling back the damaged index writer failed", e);
      }
      IOUtils.closeWhileHandlingException(searchers, writer, directory);
    }
  }

  /**
   * Opens the index in {@code path} (creating the directory if needed), setting it aside first if
   * it is damaged.
   *
   * @throws LockObtainFailedException if another writer holds the index (nothing is set aside then)
   */
  static Handles open(Path path, int dimension, Analyzer analyzer) throws IOException {
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path)) {
      setAside(path, "it is not a directory");
    }
    Files.createDirectories(path);
    Optional<String> problem = problem(path, dimension);
    if (problem.isPresent()) {
      setAside(path, problem.get());
      return create(path, dimension, analyzer, OpenMode.CREATE);
    }
    try {
      return create(path, dimension, analyzer, OpenMode.CREATE_OR_APPEND);
    } catch (LockObtainFailedException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      setAside(path, e.toString());
      return create(path, dimension, analyzer, OpenMode.CREATE);
    }
  }

  private static Handles create(Path path, int dimension, Analyzer analyzer, OpenMode mode)
      throws IOException {
    Files.createDirectories(path);
    Directory dir = new MMapDirectory(path);
    IndexWriter writer = null;
    try {
      IndexWriterConfig config =
          new IndexWriterConfig(analyzer)
              .setOpenMode(mode)
              .setCodec(codec(dimension))
              .setCommitOnClose(true);
      writer = new IndexWriter(dir, config);
      return new Handles(dir, writer, new SearcherManager(writer, new FilterCachingSearchers()));
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(writer, dir);
      throw e;
    }
  }

  /**
   * Why the index in {@code path} cannot be kept, or empty if it can (also when it holds no index
   * yet). Checks every checksum, so it reads the whole index once.
   */
  static Optional<String> problem(Path path, int dimension) {
    Path lock = path.resolve(IndexWriter.WRITE_LOCK_NAME);
    try {
      if (Files.isRegularFile(lock) && Files.size(lock) != 0) {
        return Optional.of(
            "its "
                + IndexWriter.WRITE_LOCK_NAME
                + " is not empty ("
                + Files.size(lock)
                + " bytes)");
      }
      try (Directory dir = FSDirectory.open(path)) {
        if (!DirectoryReader.indexExists(dir)) {
          return Optional.empty();
        }
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          FieldInfo vectors = FieldInfos.getMergedFieldInfos(reader).fieldInfo(IndexFields.VECTOR);
          if (vectors != null && vectors.getVectorDimension() != dimension) {
            return Optional.of(
                "it holds vectors of "
                    + vectors.getVectorDimension()
                    + " dimensions, not "
                    + dimension);
          }
          for (LeafReaderContext leaf : reader.leaves()) {
            leaf.reader().checkIntegrity();
          }
          return Optional.empty();
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.of("it cannot be read: " + e);
    }
  }

  /**
   * Moves a damaged index directory aside to the sibling {@code <name>.broken} (replacing an older
   * one there, so at most one damaged copy is kept, for diagnosis), logging a warning with the
   * reason. Takes Lucene's write lock first, so that an index another writer holds is never moved.
   *
   * @throws LockObtainFailedException if another writer holds the index
   */
  static void setAside(Path path, String reason) throws IOException {
    if (Files.isDirectory(path)) {
      try (Directory dir = FSDirectory.open(path);
          Lock held = dir.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
        held.ensureValid();
      } catch (LockObtainFailedException e) {
        throw e;
      } catch (IOException | RuntimeException invalidLock) {
        // a lock file whose content changed: nobody can commit through it; it goes aside with the
        // rest
      }
    }
    Path aside = path.resolveSibling(path.getFileName() + SET_ASIDE_SUFFIX);
    LOG.warn(
        "the search index at {} is damaged ({}); it is moved to {} and rebuilt from the record",
        path,
        reason,
        aside);
    deleteRecursively(aside);
    Files.move(path, aside);
    Files.createDirectories(path);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw new StorageException(
          "could not delete the older damaged search index "
              + dir
              + ": "
              + e.getCause().getMessage(),
          e.getCause());
    }
  }

  /**
   * The default codec, with a wider vectors format when {@code dimension} exceeds Lucene's default
   * limit.
   */
  static Codec codec(int dimension) {
    if (dimension <= KnnVectorsFormat.DEFAULT_MAX_DIMENSIONS) {
      return Codec.getDefault();
    }
    KnnVectorsFormat wide = new WideHnswVectorsFormat();
    return new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return wide;
      }
    };
  }
}
