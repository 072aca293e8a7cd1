package dev.engram.onnx;

import dev.engram.EngramException;
import dev.engram.spi.Embedder;
import dev.engram.spi.RelevanceCalibration;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * An {@link Embedder} over any LangChain4j {@link EmbeddingModel} (in-process ONNX, OpenAI,
 * Ollama...). Documents are embedded in batches; queries may get an instruction prefix (bge models
 * expect one). Thread-safe if the model is.
 */
public final class LangChain4jEmbedder implements Embedder {
  /** Texts per {@code embedAll} call. */
  public static final int BATCH_SIZE = 64;

  private final EmbeddingModel model;
  private final String modelId;
  private final int dimension;
  private final String queryPrefix;
  private final double relevanceFloor;

  /** The fitted relevance map, if this model has one ({@link #withRelevanceCalibration}). */
  private final java.util.Optional<RelevanceCalibration> calibration;

  /** Embeds a prefixed query: the model's {@code embed}, or a faster path of the same model. */
  private final Function<String, float[]> queries;

  /**
   * Embeds one batch of documents (at most {@link #BATCH_SIZE}): the model's {@code embedAll}, or
   * the model's own.
   */
  private final Function<List<String>, List<float[]>> documents;

  private LangChain4jEmbedder(
      EmbeddingModel model,
      String modelId,
      int dimension,
      String queryPrefix,
      double relevanceFloor,
      java.util.Optional<RelevanceCalibration> calibration,
      Function<String, float[]> queries,
      Function<List<String>, List<float[]>> documents) {
    this.model = model;
    this.modelId = modelId;
    this.dimension = dimension;
    this.queryPrefix = queryPrefix;
    this.relevanceFloor = relevanceFloor;
    this.calibration = calibration;
    this.queries = queries;
    this.documents = documents;
  }

  /**
   * Wraps a model.
   *
   * @param model the LangChain4j model
   * @param modelId a stable id recorded in data directories
   * @param queryPrefix text put before every query (empty for none)
   */
  public static LangChain4jEmbedder of(EmbeddingModel model, String modelId, String queryPrefix) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(queryPrefix, "queryPrefix");
    return new LangChain4jEmbedder(
        model,
        modelId,
        model.dimension(),
        queryPrefix,
        0.0,
        java.util.Optional.empty(),
        text -> model.embed(text).content().vector(),
        texts -> {
          List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
          return model.embedAll(segments).content().stream().map(Embedding::vector).toList();
        });
  }

  /**
   * The in-process models' embedder: queries and documents through the model's single-tokenisation
   * paths ({@link OnnxBertModel#embedQuery}, {@link OnnxBertModel#embedDocuments}), which give
   * LangChain4j's vectors.
   */
  static LangChain4jEmbedder of(OnnxBertModel model, String modelId, String queryPrefix) {
    return new LangChain4jEmbedder(
        model,
        modelId,
        model.dimension(),
        queryPrefix,
        0.0,
        java.util.Optional.empty(),
        model::embedQuery,
        model::embedDocuments);
  }

  /** The same embedder with a measured {@link Embedder#relevanceFloor()} in [0, 1). */
  public LangChain4jEmbedder withRelevanceFloor(double floor) {
    if (!(floor >= 0 && floor < 1)) {
      throw new dev.engram.ValidationException("relevanceFloor", "must be in [0, 1), got " + floor);
    }
    return new LangChain4jEmbedder(
        model, modelId, dimension, queryPrefix, floor, calibration, queries, documents);
  }

  /**
   * The same embedder with a fitted relevance map ({@link Embedder#relevanceCalibration()}), as
   * {@code engram bench calibrate} fits one for a model.
   */
  public LangChain4jEmbedder withRelevanceCalibration(RelevanceCalibration fitted) {
    Objects.requireNonNull(fitted, "fitted");
    return new LangChain4jEmbedder(
        model,
        modelId,
        dimension,
        queryPrefix,
        relevanceFloor,
        java.util.Optional.of(fitted),
        queries,
        documents);
  }

  @Override
  public double relevanceFloor() {
    return relevanceFloor;
  }

  /** The fitted map if one was given, else the fallback on the relevance floor. */
  @Override
  public RelevanceCalibration relevanceCalibration() {
    return calibration.orElseGet(() -> RelevanceCalibration.fallback(relevanceFloor));
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] embedQuery(String text) {
    try {
      return queries.apply(queryPrefix + text);
    } catch (RuntimeException e) {
      throw new EngramException(
          "embedding model '" + modelId + "' failed on a query: " + e.getMessage(), e);
    }
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    try {
      for (int from = 0; from < texts.size(); from += BATCH_SIZE) {
        out.addAll(documents.apply(texts.subList(from, Math.min(texts.size(), from + BATCH_SIZE))));
      }
    } catch (RuntimeException e) {
      throw new EngramException(
          "embedding model '"
              + modelId
              + "' failed on "
              + texts.size()
              + " texts: "
              + e.getMessage(),
          e);
    }
    if (out.size() != texts.size()) {
      throw new EngramException(
          "embedding model '"
              + modelId
              + "' returned "
              + out.size()
              + " vectors for "
              + texts.size()
              + " texts");
    }
    return out;
  }
}
