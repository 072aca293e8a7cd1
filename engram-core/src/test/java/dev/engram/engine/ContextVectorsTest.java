package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ContextVectorsTest {

  @Test
  void aContextVectorIsTheContextsPlusHalfTheMemorysOwnNormalised() {
    float[] sum = ContextVectors.sum(new float[] {1, 0, 0}, new float[] {0, 0.6f, 0.8f});
    // (1, 0.3, 0.4) / sqrt(1.25)
    float norm = (float) Math.sqrt(1.25);
    assertThat(sum)
        .containsExactly(new float[] {1 / norm, 0.3f / norm, 0.4f / norm}, within(1e-6f));
  }

  @Test
  void aSharedContextOrPassageIsEmbeddedOnceAfterTheMemoryTexts() {
    ContextVectors contexts = new ContextVectors(2);
    contexts.context("m1", "the question before");
    contexts.context("m2", "the question before");
    contexts.passage("m3", "a passage of a long message");
    contexts.passage("m4", "a passage of a long message");
    assertThat(contexts.texts())
        .containsExactly("the question before", "a passage of a long message");
    List<float[]> vectors =
        List.of(new float[] {0, 1}, new float[] {0, 1}, new float[] {1, 0}, new float[] {0, 1});
    // m1's context is the call's third text, plus half m1's own vector
    float norm = (float) Math.sqrt(1.25);
    assertThat(contexts.of("m1", vectors, new float[] {0, 1}).orElseThrow())
        .containsExactly(new float[] {1 / norm, 0.5f / norm}, within(1e-6f));
    // m3's passage is the fourth, as it is
    assertThat(contexts.of("m3", vectors, new float[] {1, 0}).orElseThrow())
        .containsExactly(new float[] {0, 1});
    assertThat(contexts.of("m5", vectors, new float[] {0, 1})).isEmpty();
  }

  @Test
  void vectorsOfTwoLengthsAreRefused() {
    assertThatThrownBy(() -> ContextVectors.sum(new float[] {1, 0}, new float[] {1, 0, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 dimensions")
        .hasMessageContaining("3");
  }
}
