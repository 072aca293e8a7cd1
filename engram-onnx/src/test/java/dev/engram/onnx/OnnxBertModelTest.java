package dev.engram.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link OnnxBertModel}'s query path (one tokenisation, run on the caller) gives the very vectors
 * of LangChain4j's packaged model classes, for both in-process models, short and long queries (both
 * truncate a text to its first 512 tokens), and so do documents, embedded together (on one lane per
 * core) in their order, also when several callers embed at once. LangChain4j's classes run their
 * own session with the runtime's default options (a pool of intra-op threads), Engram's with one
 * intra-op thread: the vectors are the same either way.
 */
class OnnxBertModelTest {
  private static List<String> queries() {
    List<String> out =
        new ArrayList<>(
            List.of(
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
    assertSameQueries(
        OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL),
        new BgeSmallEnV15QuantizedEmbeddingModel(),
        OnnxEmbedders.BGE_QUERY_PREFIX);
  }

  @Test
  void miniLmQueriesEqualLangChain4jsVectorsToTheBit() {
    assertSameQueries(
        OnnxEmbedders.byName(OnnxEmbedders.MINILM), new AllMiniLmL6V2QuantizedEmbeddingModel(), "");
  }

  /** Texts of very different lengths, more than one per core. */
  private static List<String> documents() {
    List<String> out = new ArrayList<>(queries());
    String[] words = {
      "garden", "violin", "Paris", "adoption", "marathon", "pottery", "camping", "sunrise"
    };
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
  void bgeDocumentsEqualLangChain4jsVectorsToTheBitInOrder() {
    assertSameDocuments(
        OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL), new BgeSmallEnV15QuantizedEmbeddingModel());
  }

  @Test
  void miniLmDocumentsEqualLangChain4jsVectorsToTheBitInOrder() {
    assertSameDocuments(
        OnnxEmbedders.byName(OnnxEmbedders.MINILM), new AllMiniLmL6V2QuantizedEmbeddingModel());
  }

  /**
   * Calls from several threads at once share the lanes' threads; each call still gets its own
   * texts' vectors, in its order, the vectors they get alone.
   */
  @Test
  void concurrentCallsEachGetTheirOwnVectorsInOrder() throws Exception {
    Embedder bge = OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL);
    List<String> texts = documents();
    List<float[]> alone = new ArrayList<>();
    for (String t : texts) {
      alone.add(bge.embedDocuments(List.of(t)).get(0));
    }
    int callers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<List<float[]>>> calls = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        List<String> rotated = new ArrayList<>(texts);
        Collections.rotate(rotated, c * 7);
        calls.add(pool.submit(() -> bge.embedDocuments(rotated)));
      }
      for (int c = 0; c < callers; c++) {
        List<float[]> got = calls.get(c).get(2, TimeUnit.MINUTES);
        assertThat(got).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
          int original = Math.floorMod(i - c * 7, texts.size());
          assertThat(got.get(i))
              .as("caller %d, text %d", c, i)
              .containsExactly(alone.get(original));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Embedded together (on one lane per core), each text gets the vector it gets alone in
   * LangChain4j's encoder.
   */
  private static void assertSameDocuments(Embedder engram, EmbeddingModel packaged) {
    List<String> texts = documents();
    List<float[]> vectors = engram.embedDocuments(texts);
    assertThat(vectors).hasSize(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      assertThat(vectors.get(i))
          .as(texts.get(i))
          .containsExactly(packaged.embed(texts.get(i)).content().vector());
    }
  }

  private static void assertSameQueries(Embedder engram, EmbeddingModel packaged, String prefix) {
    for (String q : queries()) {
      float[] expected = packaged.embed(prefix + q).content().vector();
      assertThat(engram.embedQuery(q)).as(q).hasSize(384).containsExactly(expected);
    }
  }
}
