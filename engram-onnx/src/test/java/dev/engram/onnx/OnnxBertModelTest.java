package dev.engram.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link OnnxBertModel}'s query path (one tokenisation, run on the caller) gives the very vectors of LangChain4j's
 * packaged model classes, for both in-process models, short and long queries (past 512 tokens LangChain4j splits the
 * text), and its documents go through LangChain4j's encoder unchanged.
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
    out.add(longText.toString()); // about 1,100 tokens: three parts in LangChain4j's encoder
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
  void documentsEqualLangChain4jsVectorsToTheBit() {
    Embedder engram = OnnxEmbedders.defaultEmbedder();
    EmbeddingModel packaged = new BgeSmallEnV15QuantizedEmbeddingModel();
    List<String> texts = queries();
    List<float[]> vectors = engram.embedDocuments(texts);
    for (int i = 0; i < texts.size(); i++) {
      assertThat(vectors.get(i)).as(texts.get(i)).containsExactly(packaged.embed(texts.get(i)).content().vector());
    }
  }

  private static void assertSameQueries(Embedder engram, EmbeddingModel packaged, String prefix) {
    for (String q : queries()) {
      float[] expected = packaged.embed(prefix + q).content().vector();
      assertThat(engram.embedQuery(q)).as(q).hasSize(384).containsExactly(expected);
    }
  }
}
