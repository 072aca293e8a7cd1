package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.spi.RelevanceCalibration;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * {@link Relevance}: a cosine's relevance by the embedder's calibration, and a hit's score with the
 * fusion's support.
 */
class RelevanceTest {
  private static final Offset<Double> EXACT = Offset.offset(1e-12);

  @Test
  void aCosineAndAKeywordShareMapThroughTheEmbeddersCalibration() {
    RelevanceCalibration map = new RelevanceCalibration(10, 2, -7, "test");
    assertThat(Relevance.of(0.7, 0.0, map)).isCloseTo(0.5, EXACT);
    assertThat(Relevance.of(0.5, 1.0, map)).isCloseTo(0.5, EXACT);
    assertThat(Relevance.of(0.7, 0.5, map)).isEqualTo(map.probability(0.7, 0.5)).isGreaterThan(0.5);
    assertThat(Relevance.of(Double.NaN, 1.0, map)).isZero();
  }

  @Test
  void theFusionsSupportRaisesAHitTowardsTheQuerysRelevanceByAtMostMaxSupport() {
    // within the cap: up to the query's relevance times the hit's share of the best fused score
    assertThat(Relevance.supported(0.6, 0.7, 1.0)).isCloseTo(0.7, EXACT);
    assertThat(Relevance.supported(0.3, 0.8, 0.5)).isCloseTo(0.4, EXACT);
    // the cap: a hit far from the query gains at most MAX_SUPPORT, so an unrelated one stays under
    // the suggested
    // threshold wherever the fusion ranks it
    assertThat(Relevance.supported(0.1, 0.9, 1.0)).isCloseTo(0.1 + SearchHit.MAX_SUPPORT, EXACT);
    assertThat(Relevance.supported(0.0, 1.0, 1.0))
        .isCloseTo(SearchHit.MAX_SUPPORT, EXACT)
        .isLessThan(SearchRequest.SUGGESTED_THRESHOLD);
    assertThat(Relevance.supported(0.05, 1.0, 1.0))
        .isLessThanOrEqualTo(SearchRequest.SUGGESTED_THRESHOLD);
    // never lowered, never past the query's relevance by support, the share clamped to [0, 1]
    assertThat(Relevance.supported(0.5, 0.3, 1.0)).isEqualTo(0.5);
    assertThat(Relevance.supported(0.1, 0.12, 3.0)).isCloseTo(0.12, EXACT);
    assertThat(Relevance.supported(0.1, 0.9, -1.0)).isEqualTo(0.1);
    assertThat(Relevance.supported(0.0, 0.0, 1.0)).isZero();
  }
}
