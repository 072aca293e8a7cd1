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
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * An in-process BERT embedding model shipped in a LangChain4j model jar (the ONNX file and its tokenizer), loaded
 * into one ONNX session that two paths share:
 * <ul>
 *   <li>documents go through LangChain4j's own encoder ({@link OnnxBertBiEncoder}, through {@code embedAll}: texts
 *       longer than the model's 512 tokens split and averaged, several texts in parallel), exactly as LangChain4j's
 *       packaged model classes do;</li>
 *   <li>a query ({@link #embedQuery}) is tokenised once and run on the calling thread. LangChain4j's encoder
 *       tokenises a text three times (to split it, again to check that the split rebuilds the same tokens, and once
 *       more to encode it), about 0.25 ms of CPU per query, the same ids in the end whenever the check passes (on
 *       every LoCoMo question and turn); a query longer than 512 tokens goes through LangChain4j's encoder.</li>
 * </ul>
 * The pooling (CLS or mean over every token, special ones included) and the L2 normalisation are those of
 * LangChain4j's encoder, so a query's vector is the same either way. Thread-safe.
 */
final class OnnxBertModel extends AbstractInProcessEmbeddingModel {
  /** BERT's positions, [CLS] and [SEP] included. */
  static final int MAX_TOKENS = 512;

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
    if (ids.length > MAX_TOKENS) {
      return embed(text).content().vector(); // LangChain4j splits it and averages the parts
    }
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
