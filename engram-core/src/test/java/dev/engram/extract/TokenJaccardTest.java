package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenJaccardTest {

  @ParameterizedTest(name = "[{index}] {0} ~ {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      Caroline adopted a puppy.       | caroline ADOPTED a puppy!!        | 1.0
      Caroline adopted a puppy.       | a puppy Caroline adopted          | 1.0
      Caroline adopted a puppy.       | Caroline adopted a kitten.        | 0.6
      went yesterday (7 May 2023)     | went yesterday (14 May 2023)      | 0.6666666666666666
      Caroline’s dog                  | Caroline's dog                    | 1.0
      "?!"                            | "..."                             | 1.0
      """)
  void comparesNormalisedTokenSets(String a, String b, double expected) {
    assertThat(TokenJaccard.similarity(a, b)).isCloseTo(expected, within(1e-12));
  }
}
