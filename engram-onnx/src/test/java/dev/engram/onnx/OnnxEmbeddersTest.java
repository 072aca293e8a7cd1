package dev.engram.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.spi.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OnnxEmbeddersTest {

  @ParameterizedTest
  @ValueSource(strings = {OnnxEmbedders.BGE_SMALL, OnnxEmbedders.MINILM})
  void embedsOfflineWithUnitVectorsAndRanksParaphrasesFirst(String name) {
    Embedder e = OnnxEmbedders.byName(name);
    assertThat(e.dimension()).isEqualTo(384);
    assertThat(e.modelId()).isEqualTo(name);
    List<float[]> docs =
        e.embedDocuments(
            List.of(
                "Caroline adopted a puppy named Max last week.",
                "The quarterly tax report is due in March.",
                "Melanie painted a sunrise over the lake."));
    assertThat(docs)
        .hasSize(3)
        .allSatisfy(
            v -> assertThat(norm(v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3)));
    float[] q = e.embedQuery("Which dog did Caroline get?");
    assertThat(dot(q, docs.get(0))).isGreaterThan(dot(q, docs.get(1))).isGreaterThan(0);
    assertThat(dot(q, docs.get(0))).isGreaterThan(dot(q, docs.get(2)));
  }

  @Test
  void sharesOneInstancePerModel() {
    assertThat(OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL))
        .isSameAs(OnnxEmbedders.defaultEmbedder());
  }

  @Test
  void batchesLongListsInOrder() {
    Embedder e = OnnxEmbedders.defaultEmbedder();
    List<String> texts = new java.util.ArrayList<>();
    for (int i = 0; i < 150; i++) {
      texts.add("memory number " + i);
    }
    List<float[]> all = e.embedDocuments(texts);
    assertThat(all).hasSize(150);
    assertThat(all.get(149))
        .containsExactly(
            e.embedDocuments(List.of("memory number 149")).get(0),
            org.assertj.core.data.Offset.offset(1e-5f));
  }

  @Test
  void rejectsUnknownModelNames() {
    assertThatThrownBy(() -> OnnxEmbedders.byName("gpt-embed"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("gpt-embed")
        .hasMessageContaining(OnnxEmbedders.BGE_SMALL);
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static double norm(float[] a) {
    return Math.sqrt(dot(a, a));
  }
}
