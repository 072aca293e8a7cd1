package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link TokenEstimator}: four ASCII characters per token, other characters by their script. */
class TokenEstimatorTest {

  @Test
  void asciiTextCountsOneTokenPerFourCharactersRoundedUp() {
    assertThat(TokenEstimator.estimate("")).isZero();
    StringBuilder text = new StringBuilder();
    for (int length = 1; length <= 200; length++) {
      text.append((char) ('a' + length % 26));
      assertThat(TokenEstimator.estimate(text.toString()))
          .as("length %d", length)
          .isEqualTo((length + 3) / 4);
    }
    assertThat(TokenEstimator.estimate("Alice works as a pastry chef in a small bakery."))
        .isEqualTo(12);
  }

  @Test
  void otherCharactersCountByScript() {
    assertThat(TokenEstimator.estimate("我喜欢散步")).as("Han, 1.25 each").isEqualTo(7); // 6.25
    assertThat(TokenEstimator.estimate("서울")).as("Hangul").isEqualTo(3); // 2.5
    assertThat(TokenEstimator.estimate("Москва")).as("Cyrillic, 0.6 each").isEqualTo(4); // 3.6
    assertThat(TokenEstimator.estimate("دبي")).as("Arabic, 0.8 each").isEqualTo(3); // 2.4
    assertThat(TokenEstimator.estimate("Αθήνα")).as("Greek, 1.05 each").isEqualTo(6); // 5.25
    assertThat(TokenEstimator.estimate("pâtissière"))
        .as("8 ASCII and 2 accented")
        .isEqualTo(6); // 2 + 3.5
    assertThat(TokenEstimator.estimate("😀")).as("one code point, two chars").isEqualTo(2); // 1.75
    assertThat(TokenEstimator.estimate("I love 😀")).isEqualTo(4); // 7 / 4 + 1.75 = 3.5
    assertThat(TokenEstimator.estimate("\uD83D")).as("an unpaired surrogate").isEqualTo(2);
  }

  @Test
  void nullIsRefused() {
    assertThatThrownBy(() -> TokenEstimator.estimate(null))
        .isInstanceOf(NullPointerException.class);
  }
}
