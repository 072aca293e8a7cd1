package dev.engram.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class HashingEmbedderTest {
  private final HashingEmbedder embedder = HashingEmbedder.create();

  @Test
  void describesItself() {
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.modelId()).isEqualTo("hashing-384");
    assertThat(HashingEmbedder.withDimension(64).modelId()).isEqualTo("hashing-64");
    assertThatThrownBy(() -> HashingEmbedder.withDimension(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dimension must be positive, got 0");
  }

  @Test
  void isDeterministicAcrossInstancesAndCalls() {
    String text = "Moved to Lisbon in March 2023 to work as a nurse at a small hospital.";
    float[] a = embedder.embedQuery(text);
    float[] b = HashingEmbedder.create().embedDocuments(List.of(text)).get(0);
    assertThat(b).containsExactly(a);
    assertThat(embedder.embedQuery(text)).containsExactly(a);
  }

  @Test
  void returnsUnitVectors() {
    for (String text :
        List.of(
            "a",
            "Likes green tea",
            "Has a friendly beagle named Biscuit who loves the park",
            "Ünïcödé wörds ånd 123 numbers")) {
      float[] v = embedder.embedQuery(text);
      assertThat(v).hasSize(384);
      assertThat(norm(v)).isCloseTo(1.0, within(1e-5));
    }
  }

  @Test
  void textWithoutWordsMapsToTheFirstUnitVector() {
    float[] v = embedder.embedQuery(" ,.;!? ");
    assertThat(v[0]).isEqualTo(1f);
    assertThat(norm(v)).isCloseTo(1.0, within(1e-6));
  }

  @Test
  void ignoresCaseAndPunctuation() {
    assertThat(embedder.embedQuery("Green TEA, please!"))
        .containsExactly(embedder.embedQuery("green tea please"));
  }

  @Test
  void sharedWordsGiveHigherCosine() {
    float[] query = embedder.embedQuery("which instrument does the user play in the band");
    float[] related =
        embedder.embedQuery("plays the guitar in a small band that rehearses every Friday");
    float[] unrelated =
        embedder.embedQuery("is allergic to peanuts and avoids sushi when eating out");
    assertThat(dot(query, related)).isGreaterThan(dot(query, unrelated));
    float[] same =
        embedder.embedQuery("plays the guitar in a small band that rehearses every Friday");
    assertThat(dot(related, same)).isCloseTo(1.0, within(1e-5));
  }

  @Test
  void wordOrderMattersThroughBigrams() {
    float[] a = embedder.embedQuery("green tea");
    float[] b = embedder.embedQuery("tea green");
    // Same unigrams (weight 1 each), different bigram (weight 0.5): cosine is (1 + 1) / (1 + 1 +
    // 0.25) = 0.889,
    // unless hashes collide.
    assertThat(dot(a, b)).isCloseTo(2.0 / 2.25, within(1e-5));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }

  @Test
  void theDefaultDimensionLoadsItsFittedRelevanceMapAndOthersTheFallback() {
    assertThat(HashingEmbedder.create().relevanceCalibration().source())
        .startsWith("fitted by engram bench calibrate");
    assertThat(HashingEmbedder.withDimension(64).relevanceCalibration())
        .isEqualTo(dev.engram.spi.RelevanceCalibration.fallback(0.0));
  }
}
