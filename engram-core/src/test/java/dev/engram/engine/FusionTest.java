package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.Fusion;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.List;
import org.junit.jupiter.api.Test;

class FusionTest {
  private static final List<Candidate> DENSE =
      List.of(new Candidate("a", 0.9), new Candidate("b", 0.5));
  private static final List<Candidate> KEYWORD =
      List.of(new Candidate("b", 8.0), new Candidate("c", 2.0));

  @Test
  void rrfSumsReciprocalRanksNormalisedToOne() {
    List<RankFusion.Fused> f = RankFusion.fuse(Fusion.RRF, DENSE, KEYWORD);
    assertThat(f).extracting(x -> x.id).containsExactly("b", "a", "c");
    double max = 2.0 / 61;
    // b: dense rank 2 and keyword rank 1 -> (1/62 + 1/61) / (2/61)
    assertThat(f.get(0).score).isCloseTo((1.0 / 62 + 1.0 / 61) / max, within(1e-12));
    // a: dense rank 1 only -> (1/61) / (2/61) = 0.5
    assertThat(f.get(1).score).isCloseTo(0.5, within(1e-12));
    assertThat(f.get(2).score).isCloseTo((1.0 / 62) / max, within(1e-12));
    assertThat(f.get(0).firstRank).isEqualTo(2);
    assertThat(f.get(0).secondRank).isEqualTo(1);
  }

  @Test
  void weightedMixesCosineWithMaxNormalisedBm25() {
    List<RankFusion.Fused> f = RankFusion.fuse(Fusion.WEIGHTED, DENSE, KEYWORD);
    // b: 0.7*0.5 + 0.3*8/8 = 0.65; a: 0.7*0.9 = 0.63; c: 0.3*2/8 = 0.075
    assertThat(f).extracting(x -> x.id).containsExactly("b", "a", "c");
    assertThat(f.get(0).score).isCloseTo(0.65, within(1e-12));
    assertThat(f.get(1).score).isCloseTo(0.63, within(1e-12));
    assertThat(f.get(2).score).isCloseTo(0.075, within(1e-12));
  }

  @Test
  void negativeCosinesCountAsZero() {
    List<RankFusion.Fused> f =
        RankFusion.fuse(Fusion.WEIGHTED, List.of(new Candidate("a", -0.3)), List.of());
    assertThat(f.get(0).score).isEqualTo(0.0);
  }

  @Test
  void aCandidateRepeatedInOneListKeepsItsBestRank() {
    List<RankFusion.Fused> f =
        RankFusion.fuse(
            Fusion.RRF, List.of(new Candidate("a", 0.9), new Candidate("a", 0.1)), List.of());
    assertThat(f).hasSize(1);
    assertThat(f.get(0).firstRank).isEqualTo(1);
    assertThat(f.get(0).first).isEqualTo(0.9);
  }

  @Test
  void aFusedTieGoesToTheCandidateNearerTheQueryNotToTheSmallerId() {
    // "z" is the dense list's first and the keyword list's second, "a" the reverse: the same RRF
    // sum
    List<RankFusion.Fused> f =
        RankFusion.fuse(
            Fusion.RRF,
            List.of(new Candidate("z", 0.8), new Candidate("a", 0.6)),
            List.of(new Candidate("a", 9.0), new Candidate("z", 7.0)));
    assertThat(f.get(0).score).isEqualTo(f.get(1).score);
    assertThat(f).extracting(x -> x.id).containsExactly("z", "a");
  }

  @Test
  void aListAddedLaterKeepsTheTieBreakByTheFirstScore() {
    // "z" is only in the dense list, "a" only in the keyword list, "m" only in the added list: all
    // at rank 1
    List<RankFusion.Fused> fused =
        RankFusion.fuse(
            Fusion.RRF, List.of(new Candidate("z", 0.8)), List.of(new Candidate("a", 9.0)));
    List<RankFusion.Fused> added = RankFusion.add(fused, List.of(new Candidate("m", 1.0)), 1.0);
    assertThat(added).extracting(x -> x.score).containsOnly(0.5);
    assertThat(added).extracting(x -> x.id).containsExactly("z", "a", "m");
  }

  @Test
  void cosineFusionGivesAKeywordOnlyCandidateItsTrueCosine() {
    List<String> asked = new java.util.ArrayList<>();
    List<RankFusion.Fused> f =
        RankFusion.fuseByCosine(
            DENSE,
            KEYWORD,
            ids -> {
              asked.addAll(ids);
              return java.util.Map.of("c", 0.8);
            },
            0.85);
    // only c, which the dense list did not return, is read; a: 0.85*0.9 = 0.765;
    // b: 0.85*0.5 + 0.15*8/8 = 0.575; c: 0.85*0.8 + 0.15*2/8 = 0.7175
    assertThat(asked).containsExactly("c");
    assertThat(f).extracting(x -> x.id).containsExactly("a", "c", "b");
    assertThat(f.get(0).score).isCloseTo(0.765, within(1e-12));
    assertThat(f.get(1).score).isCloseTo(0.7175, within(1e-12));
    assertThat(f.get(1).first).isCloseTo(0.8, within(1e-12));
    assertThat(f.get(1).firstRank).isZero();
    assertThat(f.get(2).score).isCloseTo(0.575, within(1e-12));
  }

  @Test
  void cosineFusionScoresACandidateWhoseCosineIsNotFoundByItsKeywordShareAlone() {
    List<RankFusion.Fused> f =
        RankFusion.fuseByCosine(List.of(), KEYWORD, ids -> java.util.Map.of(), 0.85);
    assertThat(f).extracting(x -> x.id).containsExactly("b", "c");
    assertThat(f.get(0).score).isCloseTo(0.15, within(1e-12));
    assertThat(f.get(1).score).isCloseTo(0.15 * 2 / 8, within(1e-12));
  }

  @Test
  void cosineFusionReadsNoRecordWhenTheDenseListHoldsEveryCandidate() {
    List<RankFusion.Fused> f =
        RankFusion.fuseByCosine(
            DENSE,
            List.of(new Candidate("a", 3.0)),
            ids -> {
              throw new AssertionError("read " + ids);
            },
            0.85);
    assertThat(f).extracting(x -> x.id).containsExactly("a", "b");
  }

  @Test
  void theCosineFusionIsNotFusedWithoutTheCosines() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> RankFusion.fuse(Fusion.COSINE, DENSE, KEYWORD))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
