package dev.engram.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.spi.Embedder;
import dev.engram.spi.VectorMath;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link OnnxBertModel}'s query path (one tokenisation, run on the caller) gives the very vectors of LangChain4j's
 * packaged model classes, for both in-process models, short and long queries (both truncate a text to its first 512
 * tokens); a document embedded alone gets that vector too, and documents embedded together (padded batches) stay in
 * their order, normalised, within cosine 0.97 of their single vectors (a 3-token text padded beside longer ones in
 * MiniLM drifts most: 0.975) and nearer them than any other text's.
 */
class OnnxBertModelTest {
  private static List<String> queries() {
    List<String> out = new ArrayList<>(List.of(
        "Which dog did Caroline get?",
        "When did Melanie paint a sunrise?",
        "What did Caroline research in May 2023, and why?",
        "naïve café in Zürich: “quotes”, e-mail a.b@c.de, C++ and C#, 3.14 $5 100% #tag 😀",
        "don't  double  spaces\tand tabs\nand new lines",
        "x"));
    StringBuilder longText = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      longText.append("Caroline went to the support group meeting number ").append(i).append(". ");
    }
    out.add(longText.toString()); // about 1,100 tokens: both encoders keep the first 512
    return out;
  }

  @Test
  void bgeQueriesEqualLangChain4jsVectorsToTheBit() {
    assertSameQueries(OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL), new BgeSmallEnV15QuantizedEmbeddingModel(),
        OnnxEmbedders.BGE_QUERY_PREFIX);
  }

  @Test
  void miniLmQueriesEqualLangChain4jsVectorsToTheBit() {
    assertSameQueries(OnnxEmbedders.byName(OnnxEmbedders.MINILM), new AllMiniLmL6V2QuantizedEmbeddingModel(), "");
  }

  @Test
  void aDocumentEmbeddedAloneEqualsLangChain4jsVectorToTheBit() {
    Embedder engram = OnnxEmbedders.defaultEmbedder();
    EmbeddingModel packaged = new BgeSmallEnV15QuantizedEmbeddingModel();
    for (String text : queries()) {
      assertThat(engram.embedDocuments(List.of(text)).get(0)).as(text)
          .containsExactly(packaged.embed(text).content().vector());
    }
  }

  /** Texts of very different lengths, so that the batches of length-sorted texts hold padded rows. */
  private static List<String> documents() {
    List<String> out = new ArrayList<>(queries());
    String[] words = {"garden", "violin", "Paris", "adoption", "marathon", "pottery", "camping", "sunrise"};
    for (int i = 0; i < 33; i++) {
      StringBuilder b = new StringBuilder("Note ").append(i).append(':');
      for (int w = 0; w < 1 + (i * 7) % 60; w++) {
        b.append(' ').append(words[(i + w) % words.length]);
      }
      out.add(b.toString());
    }
    return out;
  }

  @Test
  void bgeBatchedDocumentsStayInOrderAndCloseToTheirSingleVectors() {
    assertBatchedDocuments(OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL), new BgeSmallEnV15QuantizedEmbeddingModel());
  }

  @Test
  void miniLmBatchedDocumentsAverageOnlyTheirOwnTokens() {
    // mean pooling: a padded row's padding must not enter its mean
    assertBatchedDocuments(OnnxEmbedders.byName(OnnxEmbedders.MINILM), new AllMiniLmL6V2QuantizedEmbeddingModel());
  }

  private static void assertBatchedDocuments(Embedder engram, EmbeddingModel packaged) {
    List<String> texts = documents();
    List<float[]> batched = engram.embedDocuments(texts);
    assertThat(batched).hasSize(texts.size());
    assertThat(engram.embedDocuments(texts)).as("the same call again").zipSatisfy(batched,
        (again, first) -> assertThat(again).containsExactly(first));
    List<float[]> alone = texts.stream().map(t -> packaged.embed(t).content().vector()).toList();
    for (int i = 0; i < texts.size(); i++) {
      assertThat(batched.get(i)).hasSize(384);
      assertThat(norm(batched.get(i))).as("norm of %s", texts.get(i)).isCloseTo(1.0, within(1e-5));
      assertThat(VectorMath.cosine(batched.get(i), alone.get(i))).as("cosine to its own single vector: %s",
          texts.get(i))
          .isGreaterThan(0.97);
      for (int j = 0; j < texts.size(); j++) {
        if (j != i && !texts.get(j).equals(texts.get(i))) {
          assertThat(VectorMath.cosine(batched.get(i), alone.get(j)))
              .as("%s is nearer its own vector than %s's", texts.get(i), texts.get(j))
              .isLessThan(VectorMath.cosine(batched.get(i), alone.get(i)));
        }
      }
    }
  }

  private static double norm(float[] a) {
    double s = 0;
    for (float x : a) {
      s += x * x;
    }
    return Math.sqrt(s);
  }

  private static void assertSameQueries(Embedder engram, EmbeddingModel packaged, String prefix) {
    for (String q : queries()) {
      float[] expected = packaged.embed(prefix + q).content().vector();
      assertThat(engram.embedQuery(q)).as(q).hasSize(384).containsExactly(expected);
    }
  }
}
