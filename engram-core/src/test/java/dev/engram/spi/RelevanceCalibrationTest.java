package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** {@link RelevanceCalibration}: a monotone map into [0, 1], its fallback and its loading. */
class RelevanceCalibrationTest {
  private static final Offset<Double> CLOSE = Offset.offset(1e-9);

  @Test
  void theMapIsMonotoneAndWithinZeroAndOne() {
    for (RelevanceCalibration map :
        List.of(
            new RelevanceCalibration(12.5, -8.8, "fitted-like"),
            new RelevanceCalibration(1e-3, 0, "flat"),
            new RelevanceCalibration(500, -400, "steep"),
            RelevanceCalibration.fallback(0.5),
            RelevanceCalibration.fallback(0.0))) {
      double previous = -1;
      for (int i = -2000; i <= 2000; i++) {
        double p = map.probability(i / 1000.0);
        assertThat(p).isBetween(0.0, 1.0);
        assertThat(p).isGreaterThanOrEqualTo(previous);
        previous = p;
      }
      assertThat(map.probability(Double.NaN)).isZero();
      assertThat(map.probability(map.cosineAt(0.3))).isCloseTo(0.3, CLOSE);
    }
  }

  @Test
  void theFallbackScoresTheFloorNearZeroAndPutsOneHalfAQuarterOfTheWayToOne() {
    for (double floor : new double[] {0.0, 0.5}) {
      RelevanceCalibration map = RelevanceCalibration.fallback(floor);
      // an unrelated memory (at or under the floor) scores about 0.01, far under any threshold
      assertThat(map.probability(floor)).isCloseTo(0.01, Offset.offset(1e-9));
      assertThat(map.probability(floor - 0.1)).isLessThan(0.01);
      assertThat(map.cosineAt(0.5))
          .isCloseTo(floor + RelevanceCalibration.FALLBACK_MIDPOINT * (1 - floor), CLOSE);
      // an identical embedding is all but certainly relevant
      assertThat(map.probability(1.0)).isGreaterThan(0.999);
      // the keyword share is not weighed: no fit measured it for this model
      assertThat(map.keywordSlope()).isZero();
      assertThat(map.probability(0.4, 1.0)).isEqualTo(map.probability(0.4));
      assertThat(map.source()).startsWith("fallback");
    }
    assertThatThrownBy(() -> RelevanceCalibration.fallback(1.0))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void theMapIsMonotoneInTheKeywordShare() {
    RelevanceCalibration map = new RelevanceCalibration(8, 3, -6, "fitted-like");
    for (double cosine : new double[] {0.2, 0.5, 0.8}) {
      double previous = -1;
      for (int i = 0; i <= 100; i++) {
        double p = map.probability(cosine, i / 100.0);
        assertThat(p).isBetween(0.0, 1.0).isGreaterThanOrEqualTo(previous);
        previous = p;
      }
    }
    // a share out of [0, 1] is clamped
    assertThat(map.probability(0.5, 2.0)).isEqualTo(map.probability(0.5, 1.0));
    assertThat(map.cosineAt(0.5, 1.0)).isCloseTo(3.0 / 8, CLOSE);
    assertThatThrownBy(() -> new RelevanceCalibration(8, -1, 0, "x"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("keyword_slope");
  }

  @Test
  void aNonPositiveSlopeIsRefused() {
    assertThatThrownBy(() -> new RelevanceCalibration(0, 1, "x"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("slope");
    assertThatThrownBy(() -> new RelevanceCalibration(-1, 1, "x"))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void aMissingResourceIsAPackagingError() {
    assertThatThrownBy(() -> RelevanceCalibration.load(getClass(), "none.relevance.properties"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("none.relevance.properties");
  }

  @Test
  void anEmbedderWithoutAFittedMapGetsTheFallbackOnItsFloor() {
    Embedder e =
        new Embedder() {
          @Override
          public String modelId() {
            return "test";
          }

          @Override
          public int dimension() {
            return 1;
          }

          @Override
          public float[] embedQuery(String text) {
            return new float[] {1};
          }

          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            return texts.stream().map(t -> new float[] {1}).toList();
          }

          @Override
          public double relevanceFloor() {
            return 0.3;
          }
        };
    assertThat(e.relevanceCalibration()).isEqualTo(RelevanceCalibration.fallback(0.3));
  }
}
