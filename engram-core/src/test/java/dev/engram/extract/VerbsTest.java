package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerbsTest {

  @ParameterizedTest(name = "[{index}] I {0} -> she {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      go      | goes
      do      | does
      am      | is
      have    | has
      study   | studies
      try     | tries
      play    | plays
      watch   | watches
      wish    | wishes
      fix     | fixes
      buzz    | buzzes
      miss    | misses
      echo    | echoes
      love    | loves
      need    | needs
      don't   | doesn't
      haven't | hasn't
      LOVE    | LOVES
      went    | went
      agreed  | agreed
      can     | can
      will    | will
      would   | would
      was     | was
      didn't  | didn't
      read    | read
      put     | put
      """)
  void agreesWithAThirdPersonSubject(String verb, String expected) {
    assertThat(Verbs.thirdPerson(verb)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      went     | true  | false
      played   | true  | true
      seen     | false | true
      been     | false | true
      need     | false | false
      love     | false | false
      """)
  void knowsPastFormsAndParticiples(String word, boolean past, boolean participle) {
    assertThat(Verbs.isPast(word)).isEqualTo(past);
    assertThat(Verbs.isParticiple(word)).isEqualTo(participle);
  }
}
