package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Token F1 and BLEU-1 as the Mem0 harness computes them, with the arithmetic written out. */
class AnswerMetricsTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // F1: pred set {the,cat,sat,on,mat} (5), gold set {the,cat,is,on,mat} (5), common 4: P = R
        // = 4/5, F1 = 0.8.
        // BLEU-1: pred [the,cat,sat,on,the,mat], gold [the,cat,is,on,the,mat]; clipped matches the
        // 2 + cat + on
        // + mat = 5 of 6; c = r = 6 so BP = exp(1 - 6/6) = 1; BLEU-1 = 5/6.
        Arguments.of("The cat sat on the mat", "the cat is on the mat", 0.8, 5.0 / 6),
        // F1: {the} vs {the,cat}: P = 1, R = 1/2, F1 = 2 * 1/2 / (3/2) = 2/3.
        // BLEU-1: "the" 3 times in the prediction, clipped to its 1 occurrence in the gold answer:
        // 1/3; c = 3 > r = 2,
        // BP = 1; BLEU-1 = 1/3.
        Arguments.of("the the the", "the cat", 2.0 / 3, 1.0 / 3),
        // F1: {7,may} vs {7,may,2023}: P = 1, R = 2/3, F1 = 2 * 2/3 / (5/3) = 4/5.
        // BLEU-1: 2 of 2 match, precision 1; c = 2 < r = 3, BP = exp(1 - 3/2) = exp(-0.5); BLEU-1 =
        // exp(-0.5).
        Arguments.of("7 May", "7 May 2023", 0.8, Math.exp(-0.5)),
        // F1: the period becomes a space: {paris} vs {paris}, F1 = 1.
        // BLEU-1: word_tokenize gives [paris, .] vs [paris]: 1 of 2 match; c = 2 > r = 1, BP = 1;
        // BLEU-1 = 1/2.
        Arguments.of("Paris.", "paris", 1.0, 0.5),
        // No common token: both 0 (NLTK returns 0 when no unigram matches).
        Arguments.of("London", "Paris", 0.0, 0.0),
        // Empty prediction or gold answer: 0.
        Arguments.of("", "Paris", 0.0, 0.0),
        Arguments.of("Paris", "", 0.0, 0.0),
        // Only punctuation: the F1 token set is empty, 0. BLEU-1: [?] vs [paris], no match, 0.
        Arguments.of("?", "Paris", 0.0, 0.0),
        // F1: {she,didn't,go} vs {did,not,go}: common {go}, P = R = 1/3, F1 = 1/3.
        // BLEU-1: [she,did,n't,go] vs [did,not,go]: did and go match, 2/4; c = 4 > r = 3, BP = 1;
        // BLEU-1 = 1/2.
        Arguments.of("She didn't go", "did not go", 1.0 / 3, 0.5),
        // F1: {may} vs {may,7,2023} (the comma becomes a space): P = 1, R = 1/3, F1 = 2 * 1/3 /
        // (4/3) = 1/2.
        // BLEU-1: [may] vs [may,7,",",2023]: 1 of 1 match; c = 1 < r = 4, BP = exp(1 - 4/1) =
        // exp(-3).
        Arguments.of("May", "May 7, 2023", 0.5, Math.exp(-3)),
        // Duplicates count once for F1: {a,b} vs {a,b}: 1. BLEU-1: [a,a,b] vs [a,b]: a clipped to
        // 1, b: 2/3;
        // c = 3 > r = 2, BP = 1; BLEU-1 = 2/3.
        Arguments.of("a a b", "b a", 1.0, 2.0 / 3),
        // Surrounding whitespace is stripped first. F1 = 1; BLEU-1: [yes] vs [yes], 1.
        Arguments.of("  Yes \n", "yes", 1.0, 1.0));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void scoresAsTheMem0Harness(String prediction, String gold, double f1, double bleu1) {
    assertThat(AnswerMetrics.f1(prediction, gold)).isCloseTo(f1, within(1e-12));
    assertThat(AnswerMetrics.bleu1(prediction, gold)).isCloseTo(bleu1, within(1e-12));
  }

  static Stream<Arguments> brevity() {
    return Stream.of(
        Arguments.of(3, 4, 1.0), // longer prediction: no penalty
        Arguments.of(3, 3, 1.0), // same length: exp(1 - 1) = 1
        Arguments.of(28, 12, 0.2635971381157267), // NLTK's doctest: exp(1 - 28/12)
        Arguments.of(5, 0, 0.0)); // empty prediction
  }

  @ParameterizedTest
  @MethodSource("brevity")
  void brevityPenaltyAsNltk(int referenceLength, int hypothesisLength, double expected) {
    assertThat(AnswerMetrics.brevityPenalty(referenceLength, hypothesisLength))
        .isCloseTo(expected, within(1e-15));
  }
}
