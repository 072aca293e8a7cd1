package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommonTermsTest {

  private static Map<String, Integer> frequencies(Object... termsAndCounts) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int i = 0; i < termsAndCounts.length; i += 2) {
      out.put((String) termsAndCounts[i], (Integer) termsAndCounts[i + 1]);
    }
    return out;
  }

  @Test
  void aMatchMustHoldOneOfTheTermsThatAreNotCommonInTheGivenOrder() {
    assertThat(
            CommonTerms.required(
                frequencies("caroline", 80, "pottery", 3, "class", 0, "kids", 11), 100))
        .hasValueSatisfying(r -> assertThat(r).containsExactly("pottery", "class"));
  }

  @Test
  void aTermIsCommonInMoreThanATenthOfTheMemories() {
    assertThat(CommonTerms.isCommon(10, 100)).isFalse();
    assertThat(CommonTerms.isCommon(11, 100)).isTrue();
    assertThat(CommonTerms.isCommon(3, 20)).isTrue();
    assertThat(CommonTerms.isCommon(2, 20)).isFalse();
  }

  @Test
  void inASmallStoreATermIsCommonFromThreeMemoriesOn() {
    // engram demo: "maya" in 10 of 17 memories is common, "july" in 2 is not
    assertThat(CommonTerms.isCommon(10, 17)).isTrue();
    assertThat(CommonTerms.isCommon(3, 17)).isTrue();
    assertThat(CommonTerms.isCommon(2, 17)).isFalse();
    assertThat(CommonTerms.isCommon(2, 10)).isFalse();
    assertThat(CommonTerms.required(frequencies("maya", 10, "live", 0), 17))
        .hasValueSatisfying(r -> assertThat(r).containsExactly("live"));
  }

  @Test
  void nothingIsRequiredWhenNoTermOrEveryTermIsCommon() {
    assertThat(CommonTerms.required(frequencies("pottery", 3, "class", 0), 100)).isEmpty();
    assertThat(CommonTerms.required(frequencies("caroline", 80, "kids", 11), 100)).isEmpty();
    assertThat(CommonTerms.required(frequencies(), 100)).isEmpty();
  }

  @Test
  void fewerMemoriesThanTheMinimumHaveNoCommonTerms() {
    assertThat(
            CommonTerms.required(
                frequencies("caroline", 19, "pottery", 1), CommonTerms.MIN_MEMORIES - 1))
        .isEmpty();
    assertThat(CommonTerms.isCommon(19, CommonTerms.MIN_MEMORIES - 1)).isFalse();
    assertThat(CommonTerms.applies(CommonTerms.MIN_MEMORIES - 1)).isFalse();
    assertThat(CommonTerms.applies(CommonTerms.MIN_MEMORIES)).isTrue();
    assertThat(
            CommonTerms.required(
                frequencies("caroline", 19, "pottery", 1), CommonTerms.MIN_MEMORIES))
        .hasValueSatisfying(r -> assertThat(r).containsExactly("pottery"));
  }
}
