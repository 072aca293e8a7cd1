package dev.engram.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's HNSW vectors format with a higher dimension limit: Lucene caps vectors at {@value
 * KnnVectorsFormat#DEFAULT_MAX_DIMENSIONS} dimensions by default, too few for embedding models such
 * as OpenAI's (1536 or 3072). The files are exactly those of {@link Lucene99HnswVectorsFormat};
 * only the limit differs. Used for vector fields wider than the default limit, and registered as a
 * service so that segments written with it can be read back (the format name is recorded per
 * field).
 *
 * <p>Public only because Lucene's service loader needs a public class with a public no-argument
 * constructor.
 */
public final class WideHnswVectorsFormat extends KnnVectorsFormat {
  /** The format name recorded in the index. */
  public static final String NAME = "EngramWideHnsw";

  /** The widest vector accepted. */
  public static final int MAX_DIMENSIONS = 4096;

  private final KnnVectorsFormat delegate = new Lucene99HnswVectorsFormat();

  /** Creates the format (called by Lucene's service loader). */
  public WideHnswVectorsFormat() {
    super(NAME);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return delegate.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return delegate.fieldsReader(state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return MAX_DIMENSIONS;
  }

  @Override
  public String toString() {
    return NAME + "(" + delegate + ", maxDimensions=" + MAX_DIMENSIONS + ")";
  }
}
