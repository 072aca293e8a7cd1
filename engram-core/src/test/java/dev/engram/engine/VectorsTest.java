package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.EngramException;
import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link Vectors#embedDocuments}, the engine's one way of embedding stored texts: one call, every
 * vector checked and normalised, a wrong count refused. The embedders are fakes returning fixed
 * vectors (no model runs in tests).
 */
class VectorsTest {
  /** An embedder of dimension 2 answering each call with {@code answer} and counting its calls. */
  private static final class Fixed implements Embedder {
    final Function<List<String>, List<float[]>> answer;
    final List<List<String>> calls = new ArrayList<>();

    Fixed(Function<List<String>, List<float[]>> answer) {
      this.answer = answer;
    }

    @Override
    public String modelId() {
      return "fixed-2";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public float[] embedQuery(String text) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      calls.add(List.copyOf(texts));
      return answer.apply(texts);
    }
  }

  @Test
  void oneCallNormalisesEveryVectorInOrder() {
    Fixed embedder = new Fixed(texts -> List.of(new float[] {3, 4}, new float[] {0, 2}));
    List<float[]> vectors = Vectors.embedDocuments(embedder, List.of("a", "b"), "memory text");
    assertThat(embedder.calls).containsExactly(List.of("a", "b"));
    assertThat(vectors.get(0)).containsExactly(0.6f, 0.8f);
    assertThat(vectors.get(1)).containsExactly(0f, 1f);
  }

  @Test
  void aTextGivenTwiceIsEmbeddedOnceAndEachPlaceGetsAVectorOfItsOwn() {
    Fixed embedder =
        new Fixed(
            texts -> {
              List<float[]> out = new ArrayList<>();
              for (String t : texts) {
                out.add(t.equals("log line") ? new float[] {3, 4} : new float[] {0, 2});
              }
              return out;
            });
    List<float[]> vectors =
        Vectors.embedDocuments(
            embedder, List.of("log line", "other", "log line", "log line"), "memory text");
    assertThat(embedder.calls).containsExactly(List.of("log line", "other"));
    assertThat(vectors).hasSize(4);
    assertThat(vectors.get(0)).containsExactly(0.6f, 0.8f);
    assertThat(vectors.get(1)).containsExactly(0f, 1f);
    assertThat(vectors.get(2)).containsExactly(0.6f, 0.8f);
    assertThat(vectors.get(3)).containsExactly(0.6f, 0.8f);
    assertThat(vectors.get(2)).isNotSameAs(vectors.get(0)).isNotSameAs(vectors.get(3));
    vectors.get(0)[0] = 9;
    assertThat(vectors.get(2)).containsExactly(0.6f, 0.8f);
  }

  @Test
  void noTextsMakeNoCall() {
    Fixed embedder = new Fixed(texts -> List.of(new float[] {1, 0}));
    assertThat(Vectors.embedDocuments(embedder, List.of(), "fact")).isEmpty();
    assertThat(embedder.calls).isEmpty();
  }

  @Test
  void aWrongCountOrABadVectorIsRefusedWithWhatWasEmbedded() {
    assertThatThrownBy(
            () ->
                Vectors.embedDocuments(
                    new Fixed(texts -> List.of(new float[] {1, 0})),
                    List.of("a", "b"),
                    "entity name"))
        .isInstanceOf(EngramException.class)
        .hasMessage("the embedder returned 1 vectors for 2 texts (entity name)");
    assertThatThrownBy(
            () ->
                Vectors.embedDocuments(
                    new Fixed(texts -> List.of(new float[] {1, Float.NaN})), List.of("a"), "fact"))
        .isInstanceOf(EngramException.class)
        .hasMessage("the embedder returned a non-finite value for fact");
    assertThatThrownBy(
            () ->
                Vectors.embedDocuments(
                    new Fixed(texts -> List.of(new float[] {1, 0, 0})),
                    List.of("a"),
                    "memory text"))
        .isInstanceOf(EngramException.class)
        .hasMessage("the embedder returned a vector of 3 dims for memory text; expected 2");
  }
}
