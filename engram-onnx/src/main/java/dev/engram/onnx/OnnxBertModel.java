package dev.engram.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.engram.EngramException;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process BERT embedding model shipped in a LangChain4j model jar (the ONNX file and its
 * tokenizer), loaded into one ONNX session. Engram's embedder ({@link LangChain4jEmbedder}) uses
 * its own path for queries ({@link #embedQuery}: on the calling thread) and documents ({@link
 * #embedDocuments}: dealt over the cores): a text is tokenised once (LangChain4j's encoder
 * tokenises it three times: to split it, again to check that the split rebuilds the same tokens,
 * and once more to encode it; about 0.25 ms of CPU, the same ids in the end) and run alone. As a
 * LangChain4j {@code EmbeddingModel} ({@code embed}, {@code embedAll}) it is LangChain4j's own
 * encoder ({@link OnnxBertBiEncoder}) on the same session. The tokenizer keeps a text's first 512
 * tokens, as LangChain4j's does; the pooling (CLS, or the mean over every token of the text,
 * special ones included) and the L2 normalisation are those of LangChain4j's encoder, so every text
 * gets the same vector either way, to the bit. Thread-safe.
 */
final class OnnxBertModel extends AbstractInProcessEmbeddingModel {
  private static final int CORES = Math.max(1, Runtime.getRuntime().availableProcessors());

  /** Runs the documents of every lane but the caller's own. */
  private static final ExecutorService LANES =
      Executors.newFixedThreadPool(
          Math.max(1, CORES - 1),
          runnable -> {
            Thread t = new Thread(runnable, "engram-onnx-documents");
            t.setDaemon(true);
            return t;
          });

  private final OrtEnvironment environment;
  private final OrtSession session;
  private final Set<String> inputs;
  private final HuggingFaceTokenizer tokenizer;
  private final PoolingMode pooling;
  private final OnnxBertBiEncoder documents;
  private final int knownDimension;

  private OnnxBertModel(
      OrtEnvironment environment,
      OrtSession session,
      HuggingFaceTokenizer tokenizer,
      PoolingMode pooling,
      OnnxBertBiEncoder documents,
      int dimension)
      throws OrtException {
    super(null); // LangChain4j's default executor for embedAll
    this.environment = environment;
    this.session = session;
    this.inputs = session.getInputNames();
    this.tokenizer = tokenizer;
    this.pooling = pooling;
    this.documents = documents;
    this.knownDimension = dimension;
  }

  /**
   * Loads a model from resources of the class loader of {@code anchor} (a class of the model's
   * jar): one ONNX session that runs each text on its caller's thread alone (one intra-op thread;
   * the runtime's default is a pool of one spinning thread per core). The cores are used by running
   * texts side by side instead: a call's documents on one lane per core, and a query beside its
   * search's keyword reads. The vectors are the default session's, to the bit ({@code
   * OnnxBertModelTest}).
   */
  static OnnxBertModel load(
      Class<?> anchor,
      String modelResource,
      String tokenizerResource,
      PoolingMode pooling,
      int dimension) {
    try {
      byte[] model = resource(anchor, modelResource);
      byte[] tokenizerJson = resource(anchor, tokenizerResource);
      OrtEnvironment environment = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(1);
      OrtSession session = environment.createSession(model, options);
      OnnxBertBiEncoder documents =
          new OnnxBertBiEncoder(
              environment, session, new ByteArrayInputStream(tokenizerJson), pooling);
      HuggingFaceTokenizer tokenizer =
          HuggingFaceTokenizer.newInstance(
              new ByteArrayInputStream(tokenizerJson), Map.of("padding", "false"));
      return new OnnxBertModel(environment, session, tokenizer, pooling, documents, dimension);
    } catch (OrtException | IOException e) {
      throw new EngramException(
          "could not load the in-process model " + modelResource + ": " + e.getMessage(), e);
    }
  }

  private static byte[] resource(Class<?> anchor, String name) throws IOException {
    try (InputStream in = anchor.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("resource " + name + " not found beside " + anchor.getName());
      }
      return in.readAllBytes();
    }
  }

  @Override
  protected OnnxBertBiEncoder model() {
    return documents;
  }

  @Override
  protected Integer knownDimension() {
    return knownDimension;
  }

  /**
   * The normalised embedding of a query: one tokenisation and one run of the session on the calling
   * thread.
   */
  float[] embedQuery(String text) {
    return run(tokenizer.encode(text, true, false));
  }

  /**
   * The normalised embeddings of documents, in order: each text tokenised once and run alone, so
   * that its vector is the one it gets in any call, alone or beside others (padded batches would
   * change it: the quantised model quantises its activations per batch, docs/BENCHMARKS.md). As
   * many lanes as there are cores (the caller runs one) take the next text from a shared counter,
   * tokenise it and run it, so a lane that drew short texts takes more of them and the tokenisation
   * is spread over the cores too; a failing lane stops the others at their next text.
   */
  List<float[]> embedDocuments(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    float[][] out = new float[texts.size()][];
    AtomicInteger next = new AtomicInteger();
    int lanes = Math.min(CORES, texts.size());
    List<Future<?>> running = new ArrayList<>(lanes - 1);
    for (int lane = 1; lane < lanes; lane++) {
      running.add(LANES.submit(() -> runLane(texts, next, out)));
    }
    RuntimeException failure = null;
    try {
      runLane(texts, next, out);
    } catch (RuntimeException e) {
      failure = e;
    }
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure =
            failure != null
                ? failure
                : new EngramException("interrupted while embedding documents", e);
      } catch (ExecutionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException r
                ? r
                : new EngramException("the in-process model failed: " + e.getCause(), e.getCause());
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return List.of(out);
  }

  /**
   * Embeds the next text not yet taken until none is left; on a failure, leaves none for the other
   * lanes.
   */
  private void runLane(List<String> texts, AtomicInteger next, float[][] out) {
    try {
      for (int i = next.getAndIncrement(); i < texts.size(); i = next.getAndIncrement()) {
        out[i] = run(tokenizer.encode(texts.get(i), true, false));
      }
    } catch (RuntimeException e) {
      next.set(texts.size());
      throw e;
    }
  }

  /** One text's normalised embedding: one run of the session on the calling thread. */
  private float[] run(Encoding encoding) {
    long[] ids = encoding.getIds();
    long[] shape = {1, ids.length};
    try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
        OnnxTensor mask =
            OnnxTensor.createTensor(
                environment, LongBuffer.wrap(encoding.getAttentionMask()), shape);
        OnnxTensor types =
            OnnxTensor.createTensor(environment, LongBuffer.wrap(encoding.getTypeIds()), shape)) {
      Map<String, OnnxTensor> feed = new HashMap<>();
      feed.put("input_ids", inputIds);
      feed.put("attention_mask", mask);
      if (inputs.contains("token_type_ids")) {
        feed.put("token_type_ids", types);
      }
      try (OrtSession.Result result = session.run(feed)) {
        FloatBuffer hidden =
            ((OnnxTensor) result.get(0)).getFloatBuffer(); // [1, tokens, width], row-major
        return normalized(pool(hidden, ids.length));
      }
    } catch (OrtException e) {
      throw new EngramException("the in-process model failed: " + e.getMessage(), e);
    }
  }

  private float[] pool(FloatBuffer hidden, int tokens) {
    int width = hidden.remaining() / tokens;
    float[] out = new float[width];
    if (pooling == PoolingMode.CLS) {
      hidden.get(out, 0, width);
      return out;
    }
    float[] row = new float[width];
    for (int t = 0; t < tokens; t++) {
      hidden.get(row, 0, width);
      for (int j = 0; j < width; j++) {
        out[j] += row[j];
      }
    }
    for (int j = 0; j < width; j++) {
      out[j] /= tokens;
    }
    return out;
  }

  /**
   * Divided by its L2 norm, computed in float as LangChain4j's encoder does, so the two agree to
   * the bit.
   */
  private static float[] normalized(float[] v) {
    float sumSquare = 0;
    for (float x : v) {
      sumSquare += x * x;
    }
    float norm = (float) Math.sqrt(sumSquare);
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] / norm;
    }
    return out;
  }
}
