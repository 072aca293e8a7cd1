package dev.engram.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {

  @Test
  void evidenceRecallIsTheShareOfGoldIdsRetrieved() {
    assertThat(RetrievalMetrics.evidenceRecall(List.of("D1:1", "D2:1"), Set.of("D1:1", "D9:9")))
        .isEqualTo(0.5);
    assertThat(RetrievalMetrics.evidenceRecall(List.of("D1:1", "D1:1"), Set.of("D1:1")))
        .isEqualTo(1.0);
    assertThat(RetrievalMetrics.evidenceRecall(List.of(), Set.of())).isEqualTo(1.0);
    assertThat(RetrievalMetrics.hit(List.of("D1:1", "D2:1"), Set.of("D2:1"))).isEqualTo(1.0);
    assertThat(RetrievalMetrics.hit(List.of("D1:1"), Set.of("D2:1"))).isEqualTo(0.0);
  }

  @Test
  void reciprocalRankIsOneOverTheRankOfTheFirstHitWithEvidence() {
    List<Set<String>> hits = List.of(Set.of("D1:2"), Set.of("D3:1", "D2:1"), Set.of("D1:1"));
    assertThat(RetrievalMetrics.reciprocalRank(List.of("D1:1", "D2:1"), hits)).isEqualTo(0.5);
    assertThat(RetrievalMetrics.reciprocalRank(List.of("D1:2"), hits)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.reciprocalRank(List.of("D1:1"), hits)).isEqualTo(1.0 / 3);
    assertThat(RetrievalMetrics.reciprocalRank(List.of("D9:9"), hits)).isEqualTo(0.0);
    assertThat(RetrievalMetrics.reciprocalRank(List.of(), hits)).isEqualTo(0.0);
    assertThat(RetrievalMetrics.reciprocalRank(List.of("D1:1"), List.of())).isEqualTo(0.0);
  }

  @Test
  void answerTokenRecallIgnoresCaseStopWordsAndPunctuation() {
    // content tokens of the answer: {pixel, knocked, violin, over}; retrieved: pixel, knocked,
    // violin -> 3/4
    assertThat(
            RetrievalMetrics.answerTokenRecall(
                "Pixel knocked her violin over",
                List.of("Ada's cat Pixel knocked", "the VIOLIN, off the shelf")))
        .isEqualTo(0.75);
    assertThat(RetrievalMetrics.answerTokenRecall("2024", List.of("in March 2024"))).isEqualTo(1.0);
    assertThat(RetrievalMetrics.answerTokenRecall("the", List.of("x"))).isEqualTo(1.0);
  }

  @Test
  void percentilesUseNearestRank() {
    Percentiles p = new Percentiles(new double[] {5, 1, 4, 2, 3, 6, 7, 8, 9, 10});
    assertThat(p.at(50)).isEqualTo(5);
    assertThat(p.at(95)).isEqualTo(10);
    assertThat(p.at(10)).isEqualTo(1);
    assertThat(p.mean()).isEqualTo(5.5);
  }
}
