package dev.engram.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.TokenCounter;
import dev.engram.TokenEstimator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The estimate's error against the real cl100k tokenizer (jtokkit), on a few kinds of text. */
class TokenEstimateErrorTest {

  @Test
  void measuresTheEstimateAgainstCl100k() {
    List<String> texts =
        List.of(
            "I moved to Lisbon last spring",
            "Caroline went to the LGBTQ support group on 7 May 2023 and found it powerful.",
            "ok",
            "",
            "Melanie: I painted a lake sunrise last year, it's special to me.");
    TokenEstimateError e = TokenEstimateError.of(texts);
    assertThat(e.texts()).isEqualTo(4);
    long real =
        texts.stream().filter(t -> !t.isBlank()).mapToInt(TokenCounter.cl100k()::count).sum();
    long estimated =
        texts.stream().filter(t -> !t.isBlank()).mapToInt(TokenEstimator::estimate).sum();
    assertThat(e.cl100kTotal()).isEqualTo(real);
    assertThat(e.estimateTotal()).isEqualTo(estimated);
    assertThat(e.totalError()).isCloseTo((double) estimated / real - 1, within(1e-12));
    // English prose: four characters per token is within a third of the real count, per text and in
    // total
    assertThat(e.percentile(0)).isGreaterThan(-0.34);
    assertThat(e.percentile(100)).isLessThan(0.5);
    assertThat(e.totalError()).isBetween(-0.2, 0.2);
  }

  /**
   * Every script of the multilingual sample is within a fifth of cl100k in total; four characters
   * per token, the estimate before, counted a quarter to a half of the tokens of the non-Latin
   * ones.
   */
  @Test
  void everyScriptOfTheMultilingualSampleIsWithinAFifthOfCl100k() {
    Map<String, List<String>> sample = TokenEstimateError.multilingualSample();
    assertThat(sample.keySet())
        .contains(
            "chinese",
            "japanese",
            "korean",
            "russian",
            "greek",
            "arabic",
            "hindi",
            "european",
            "emoji",
            "english");
    sample.forEach(
        (group, texts) -> {
          TokenEstimateError e = TokenEstimateError.of(texts);
          assertThat(e.texts()).as(group).isGreaterThanOrEqualTo(3);
          assertThat(e.totalError()).as(group + ": " + e.summary(group)).isBetween(-0.2, 0.2);
        });
    long chineseReal = sample.get("chinese").stream().mapToInt(TokenCounter.cl100k()::count).sum();
    long chineseByLength = sample.get("chinese").stream().mapToInt(t -> (t.length() + 3) / 4).sum();
    assertThat((double) chineseByLength / chineseReal)
        .as("what four characters per token gave")
        .isLessThan(0.3);
  }
}
