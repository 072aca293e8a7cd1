package dev.engram.onnx;

import dev.engram.ValidationException;
import dev.engram.spi.Embedder;
import dev.engram.spi.RelevanceCalibration;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process ONNX embedders that ship inside Maven artifacts: no network, no API key. Each
 * model is loaded once per JVM and shared (loading takes 0.3 to 1 s).
 */
public final class OnnxEmbedders {
  /** bge-small-en-v1.5, int8-quantised, 384 dimensions, CLS pooling. The default. */
  public static final String BGE_SMALL = "bge-small-en-v1.5-q";

  /**
   * bge-small's {@link Embedder#relevanceFloor()}: its embeddings share a narrow cone, so a
   * question and the best match in a store about something else still have a cosine of about
   * 0.45-0.6 (LoCoMo off-topic benchmark, docs/BENCHMARKS.md); 0.5 maps to relevance 0.
   */
  public static final double BGE_SMALL_RELEVANCE_FLOOR = 0.5;

  /**
   * all-MiniLM-L6-v2, int8-quantised, 384 dimensions, mean pooling: half bge-small's layers, so it
   * embeds about twice as fast (verbatim ingest of BEAM 31 turns/s against 16 on two cores), for
   * somewhat less evidence found (docs/BENCHMARKS.md, "BEAM retrieval"). Its relevance map is
   * fitted the same way as bge-small's.
   */
  public static final String MINILM = "all-minilm-l6-v2-q";

  /**
   * The model used when none is configured; chosen by evidence recall on the LoCoMo sample
   * (docs/BENCHMARKS.md).
   */
  public static final String DEFAULT = BGE_SMALL;

  /** The instruction bge models were trained with for retrieval queries. */
  static final String BGE_QUERY_PREFIX =
      "Represent this sentence for searching relevant passages: ";

  private static final Map<String, Embedder> LOADED = new ConcurrentHashMap<>();

  private OnnxEmbedders() {}

  /** The default embedder. */
  public static Embedder defaultEmbedder() {
    return byName(DEFAULT);
  }

  /** The names {@link #byName} accepts. */
  public static List<String> names() {
    return List.of(BGE_SMALL, MINILM);
  }

  /**
   * The shared instance of a model.
   *
   * @throws ValidationException for an unknown name
   */
  public static Embedder byName(String name) {
    if (!names().contains(name)) {
      throw new ValidationException(
          "embedder",
          "unknown in-process model '"
              + name
              + "' (expected one of "
              + String.join(", ", names())
              + ")");
    }
    return LOADED.computeIfAbsent(name, OnnxEmbedders::load);
  }

  /**
   * Loads a model from the files of LangChain4j's model jar (the same files and session options as
   * its {@code BgeSmallEnV15QuantizedEmbeddingModel} and {@code
   * AllMiniLmL6V2QuantizedEmbeddingModel}), as an {@link OnnxBertModel}: the same vectors, a query
   * tokenised once.
   */
  private static Embedder load(String name) {
    if (BGE_SMALL.equals(name)) {
      return LangChain4jEmbedder.of(
              OnnxBertModel.load(
                  BgeSmallEnV15QuantizedEmbeddingModel.class,
                  "bge-small-en-v1.5-q.onnx",
                  "bge-small-en-v1.5-q-tokenizer.json",
                  PoolingMode.CLS,
                  384),
              BGE_SMALL,
              BGE_QUERY_PREFIX)
          .withRelevanceFloor(BGE_SMALL_RELEVANCE_FLOOR)
          .withRelevanceCalibration(
              RelevanceCalibration.load(OnnxEmbedders.class, BGE_SMALL + ".relevance.properties"));
    }
    return LangChain4jEmbedder.of(
            OnnxBertModel.load(
                AllMiniLmL6V2QuantizedEmbeddingModel.class,
                "all-minilm-l6-v2-q.onnx",
                "all-minilm-l6-v2-q-tokenizer.json",
                PoolingMode.MEAN,
                384),
            MINILM,
            "")
        .withRelevanceCalibration(
            RelevanceCalibration.load(OnnxEmbedders.class, MINILM + ".relevance.properties"));
  }
}
