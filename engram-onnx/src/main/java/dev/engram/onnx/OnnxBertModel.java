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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.Map;
import java.util.Set;

/**
 * An in-process BERT embedding model shipped in a LangChain4j model jar (the ONNX file and its tokenizer), loaded
 * into one ONNX session. Engram's embedder ({@link LangChain4jEmbedder}) uses its two own paths:
 * <ul>
 *   <li>a query ({@link #embedQuery}) is tokenised once and run on the calling thread. LangChain4j's encoder
 *       tokenises a text three times (to split it, again to check that the split rebuilds the same tokens, and once
 *       more to encode it), about 0.25 ms of CPU per query, the same ids in the end;</li>
 *   <li>documents ({@link #embedDocuments}) are tokenised once and run in small padded batches spread over the
 *       cores, about 15% less CPU per text than one run per text.</li>
 * </ul>
 * As a LangChain4j {@code EmbeddingModel} ({@code embed}, {@code embedAll}) it is LangChain4j's own encoder
 * ({@link OnnxBertBiEncoder}) on the same session. The tokenizer keeps a text's first 512 tokens, as LangChain4j's
 * does; the pooling (CLS, or the mean over every token of the text, special ones included) and the L2 normalisation
 * are those of LangChain4j's encoder, so a query, or a document embedded alone, gets the same vector either way, to
 * the bit. Thread-safe.
 */
final class OnnxBertModel extends AbstractInProcessEmbeddingModel {
  private final OrtEnvironment environment;
  private final OrtSession session;
  private final Set<String> inputs;
  private final HuggingFaceTokenizer tokenizer;
  private final PoolingMode pooling;
  private final OnnxBertBiEncoder documents;
  private final int dimension;

  private OnnxBertModel(OrtEnvironment environment, OrtSession session, HuggingFaceTokenizer tokenizer,
                        PoolingMode pooling, OnnxBertBiEncoder documents, int dimension) throws OrtException {
    super(null); // LangChain4j's default executor for embedAll
    this.environment = environment;
    this.session = session;
    this.inputs = session.getInputNames();
    this.tokenizer = tokenizer;
    this.pooling = pooling;
    this.documents = documents;
    this.dimension = dimension;
  }

  /**
   * Loads a model from resources of the class loader of {@code anchor} (a class of the model's jar): one ONNX session
   * with the runtime's default options, as LangChain4j's packaged models create it.
   */
  static OnnxBertModel load(Class<?> anchor, String modelResource, String tokenizerResource, PoolingMode pooling,
                            int dimension) {
    try {
      byte[] model = resource(anchor, modelResource);
      byte[] tokenizerJson = resource(anchor, tokenizerResource);
      OrtEnvironment environment = OrtEnvironment.getEnvironment();
      OrtSession session = environment.createSession(model, new OrtSession.SessionOptions());
      OnnxBertBiEncoder documents = new OnnxBertBiEncoder(environment, session,
          new ByteArrayInputStream(tokenizerJson), pooling);
      HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson),
          Map.of("padding", "false"));
      return new OnnxBertModel(environment, session, tokenizer, pooling, documents, dimension);
    } catch (OrtException | IOException e) {
      throw new EngramException("could not load the in-process model " + modelResource + ": " + e.getMessage(), e);
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
    return dimension;
  }

  /** The normalised embedding of a query: one tokenisation and one run of the session on the calling thread. */
  float[] embedQuery(String text) {
    Encoding encoding = tokenizer.encode(text, true, false);
    long[] ids = encoding.getIds();
    long[] shape = {1, ids.length};
    try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
         OnnxTensor mask = OnnxTensor.createTensor(environment, LongBuffer.wrap(encoding.getAttentionMask()), shape);
         OnnxTensor types = OnnxTensor.createTensor(environment, LongBuffer.wrap(encoding.getTypeIds()), shape)) {
      Map<String, OnnxTensor> feed = new HashMap<>();
      feed.put("input_ids", inputIds);
      feed.put("attention_mask", mask);
      if (inputs.contains("token_type_ids")) {
        feed.put("token_type_ids", types);
      }
      try (OrtSession.Result result = session.run(feed)) {
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer(); // [1, tokens, width], row-major
        return normalized(pool(hidden, ids.length));
      }
    } catch (OrtException e) {
      throw new EngramException("the in-process model failed on a query: " + e.getMessage(), e);
    }
  }

  /**
   * At most this many texts per ONNX run of {@link #embedDocuments}. Runs of 2 to 6 texts all took 10-15% less CPU
   * per text than one text per run on LoCoMo's turns; 4 was the fastest (docs/BENCHMARKS.md, "Raw-turn ingest").
   */
  static final int DOCUMENT_BATCH = 4;

  private static final int CORES = Math.max(1, Runtime.getRuntime().availableProcessors());
  private static final ExecutorService RUNNERS = Executors.newFixedThreadPool(CORES, runnable -> {
    Thread t = new Thread(runnable, "engram-onnx-documents");
    t.setDaemon(true);
    return t;
  });

  /**
   * The normalised embeddings of documents, in order. Each text is tokenised once; the texts are sorted by length
   * and run in padded, attention-masked batches of at most {@link #DOCUMENT_BATCH}, as many batches as a multiple of
   * the cores, spread over them (the caller runs the last). A single text is one run of its own, the same vector as {@link #embedQuery} gives for the
   * same text; in a batch, the quantised model's activations are quantised per batch, so a text's vector depends
   * slightly on the texts it ran with (cosine 0.997 on average to its single-text vector on LoCoMo's turns).
   */
  List<float[]> embedDocuments(List<String> texts) {
    float[][] out = new float[texts.size()][];
    List<Encoding> encodings = new ArrayList<>(texts.size());
    List<Integer> order = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      encodings.add(tokenizer.encode(texts.get(i), true, false));
      order.add(i);
    }
    order.sort(Comparator.comparingInt(i -> encodings.get(i).getIds().length));
    // runs of at most DOCUMENT_BATCH texts, as many as a multiple of the cores, sizes differing by at most one
    int n = order.size();
    int batches = n == 0 ? 0 : CORES * ((n + CORES * DOCUMENT_BATCH - 1) / (CORES * DOCUMENT_BATCH));
    batches = Math.min(batches, n);
    List<Future<?>> running = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      List<Integer> batch = order.subList((int) ((long) n * b / batches), (int) ((long) n * (b + 1) / batches));
      if (b == batches - 1) {
        runBatch(batch, encodings, out); // the caller's thread takes the last one
      } else {
        running.add(RUNNERS.submit(() -> runBatch(batch, encodings, out)));
      }
    }
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EngramException("interrupted while embedding documents", e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r
            : new EngramException("the in-process model failed: " + e.getCause(), e.getCause());
      }
    }
    return List.of(out);
  }

  private void runBatch(List<Integer> batch, List<Encoding> encodings, float[][] out) {
    int rows = batch.size();
    int length = 0;
    for (int i : batch) {
      length = Math.max(length, encodings.get(i).getIds().length);
    }
    long[] ids = new long[rows * length];
    long[] mask = new long[rows * length];
    long[] types = new long[rows * length];
    for (int r = 0; r < rows; r++) {
      Encoding e = encodings.get(batch.get(r));
      long[] ti = e.getIds();
      System.arraycopy(ti, 0, ids, r * length, ti.length);
      System.arraycopy(e.getAttentionMask(), 0, mask, r * length, ti.length);
      System.arraycopy(e.getTypeIds(), 0, types, r * length, ti.length);
    }
    long[] shape = {rows, length};
    try (OnnxTensor inputIds = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
         OnnxTensor maskTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
         OnnxTensor typeTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(types), shape)) {
      Map<String, OnnxTensor> feed = new HashMap<>();
      feed.put("input_ids", inputIds);
      feed.put("attention_mask", maskTensor);
      if (inputs.contains("token_type_ids")) {
        feed.put("token_type_ids", typeTensor);
      }
      try (OrtSession.Result result = session.run(feed)) {
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer(); // [rows, length, width]
        int width = hidden.remaining() / (rows * length);
        for (int r = 0; r < rows; r++) {
          int tokens = encodings.get(batch.get(r)).getIds().length;
          FloatBuffer row = hidden.duplicate();
          row.position(r * length * width);
          row.limit(row.position() + tokens * width);
          out[batch.get(r)] = normalized(pool(row.slice(), tokens));
        }
      }
    } catch (OrtException e) {
      throw new EngramException("the in-process model failed on " + rows + " documents: " + e.getMessage(), e);
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

  /** Divided by its L2 norm, computed in float as LangChain4j's encoder does, so the two agree to the bit. */
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
