package dev.engram.lucene;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the {@link IndexWriter} of an index directory. An existing index is kept if it can be read and its vectors
 * have the expected dimension; otherwise it is replaced by an empty one (the engine rebuilds it from the store).
 */
final class IndexOpening {
  private static final Logger LOG = LoggerFactory.getLogger(IndexOpening.class);

  private IndexOpening() {}

  static IndexWriter openWriter(Directory dir, Path path, int dimension, Analyzer analyzer) throws IOException {
    boolean keep = keepExisting(dir, path, dimension);
    if (!keep && DirectoryReader.indexExists(dir)) {
      removeIndexFiles(dir);
    }
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setOpenMode(keep ? OpenMode.CREATE_OR_APPEND : OpenMode.CREATE)
        .setCodec(codec(dimension))
        .setCommitOnClose(true);
    return new IndexWriter(dir, config);
  }

  /**
   * True if the directory holds an index that is readable and has vectors of {@code dimension} (if any), false if
   * it holds none or one that must be replaced.
   */
  private static boolean keepExisting(Directory dir, Path path, int dimension) {
    try {
      if (!DirectoryReader.indexExists(dir)) {
        return false;
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        FieldInfo vectors = FieldInfos.getMergedFieldInfos(reader).fieldInfo(IndexFields.VECTOR);
        if (vectors != null && vectors.getVectorDimension() != dimension) {
          LOG.warn("the search index at {} holds vectors of {} dimensions, not {}; replacing it with an empty index"
              + " to be rebuilt", path, vectors.getVectorDimension(), dimension);
          return false;
        }
        return true;
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("the search index at {} cannot be read ({}); replacing it with an empty index to be rebuilt",
          path, e.toString());
      return false;
    }
  }

  /**
   * Deletes the files of an index (commit points and segment files; nothing else), holding the write lock so that
   * an index in use by another writer is left alone ({@link LockObtainFailedException}). Lucene cannot create over a
   * damaged commit point, so the files go first.
   */
  private static void removeIndexFiles(Directory dir) throws IOException {
    try (Lock lock = dir.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
      for (String name : dir.listAll()) {
        if (name.startsWith(IndexFileNames.SEGMENTS) || name.startsWith(IndexFileNames.PENDING_SEGMENTS)
            || name.startsWith("_")) {
          dir.deleteFile(name);
        }
      }
    }
  }

  /** The default codec, with a wider vectors format when {@code dimension} exceeds Lucene's default limit. */
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
