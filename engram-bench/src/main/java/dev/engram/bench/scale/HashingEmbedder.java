package dev.engram.bench.scale;

import dev.engram.spi.Embedder;
import dev.engram.spi.RelevanceCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cheap, deterministic <b>benchmark</b> embedder: signed feature hashing of a text's lower-cased
 * word unigrams and bigrams into a fixed number of dimensions, L2-normalised. It runs no model and
 * needs no files, embedding over a hundred thousand short texts per second on one core, so scale
 * runs and microbenchmarks measure the engine and the stores rather than the embedding model (an
 * in-process ONNX model embeds a few hundred texts per second on two cores).
 *
 * <p><b>Not for retrieval quality.</b> Two texts are similar only when they share words or word
 * pairs: there is no notion of synonyms or meaning. Use it to load and time the engine, never to
 * judge what search returns; the vectors it writes are recorded under the model id {@code
 * hashing-<dimension>}, so a data directory filled with it cannot later be opened with a real model
 * by mistake.
 *
 * <p><b>Method.</b> Words are maximal runs of letters and digits, lower-cased. Each unigram adds
 * weight 1 and each pair of adjacent words adds weight 0.5 to one dimension chosen by a 64-bit
 * FNV-1a hash of the feature, with a sign taken from another bit of the same hash (so that
 * collisions cancel out on average instead of piling up). The result is divided by its length. A
 * text without words maps to the first unit vector. The output depends only on the text and the
 * dimension: it is the same on every JVM and platform.
 *
 * <p><b>Threading.</b> Immutable and thread-safe.
 */
public final class HashingEmbedder implements Embedder {
  /**
   * The dimension of the default instance: that of the default ONNX model (bge-small-en-v1.5), 384.
   */
  public static final int DEFAULT_DIMENSION = 384;

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final float BIGRAM_WEIGHT = 0.5f;

  private final int dimension;

  private HashingEmbedder(int dimension) {
    this.dimension = dimension;
  }

  /** An embedder of {@value #DEFAULT_DIMENSION} dimensions. */
  public static HashingEmbedder create() {
    return new HashingEmbedder(DEFAULT_DIMENSION);
  }

  /**
   * An embedder of {@code dimension} dimensions.
   *
   * @throws IllegalArgumentException if {@code dimension} is less than 1
   */
  public static HashingEmbedder withDimension(int dimension) {
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive, got " + dimension);
    }
    return new HashingEmbedder(dimension);
  }

  /** {@code hashing-<dimension>}, for example {@code hashing-384}. */
  @Override
  public String modelId() {
    return "hashing-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /**
   * The fitted relevance map of {@code hashing-384} ({@code engram bench calibrate --model hash}),
   * the fallback on floor 0 for other dimensions, whose cosines were not fitted.
   */
  @Override
  public RelevanceCalibration relevanceCalibration() {
    return dimension == DEFAULT_DIMENSION ? Fitted.MAP : RelevanceCalibration.fallback(0.0);
  }

  /** The fitted map of the default dimension, loaded on first use. */
  private static final class Fitted {
    static final RelevanceCalibration MAP =
        RelevanceCalibration.load(HashingEmbedder.class, "hashing-384.relevance.properties");
  }

  /** Embeds a query exactly as a document: the model has no query instruction. */
  @Override
  public float[] embedQuery(String text) {
    return embed(Objects.requireNonNull(text, "text"));
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(embed(Objects.requireNonNull(t, "texts contains null")));
    }
    return out;
  }

  /** The unit vector of one text. */
  float[] embed(String text) {
    float[] v = new float[dimension];
    long previous = 0;
    boolean hasPrevious = false;
    int i = 0;
    int n = text.length();
    while (i < n) {
      int cp = text.codePointAt(i);
      if (!Character.isLetterOrDigit(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      long word = FNV_OFFSET;
      while (i < n) {
        cp = text.codePointAt(i);
        if (!Character.isLetterOrDigit(cp)) {
          break;
        }
        word = mix(word, Character.toLowerCase(cp));
        i += Character.charCount(cp);
      }
      add(v, word, 1f);
      if (hasPrevious) {
        add(v, mix(mix(previous, ' '), word), BIGRAM_WEIGHT);
      }
      previous = word;
      hasPrevious = true;
    }
    return normalise(v);
  }

  /** One FNV-1a step over the four bytes of {@code value}. */
  private static long mix(long hash, long value) {
    long h = hash;
    for (int shift = 0; shift < 32; shift += 8) {
      h ^= (value >>> shift) & 0xff;
      h *= FNV_PRIME;
    }
    return h;
  }

  private void add(float[] v, long hash, float weight) {
    long h = hash ^ (hash >>> 29);
    h *= 0xbf58476d1ce4e5b9L;
    h ^= h >>> 32;
    int bucket = (int) Math.floorMod(h, (long) dimension);
    v[bucket] += (h & (1L << 62)) == 0 ? weight : -weight;
  }

  private static float[] normalise(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += (double) x * x;
    }
    if (norm == 0) {
      v[0] = 1f;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  @Override
  public String toString() {
    return "HashingEmbedder[" + dimension + " dimensions]";
  }
}
