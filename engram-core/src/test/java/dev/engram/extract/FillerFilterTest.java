package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FillerFilterTest {

  private final FillerFilter filter = new FillerFilter(3);

  /** An empty expected value means the sentence is dropped. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      Hi!                                            | ""
      Hey Mel!                                       | ""
      Hey Mel! Good to see you!                      | ""
      Good to see you!                               | ""
      Thanks!                                        | ""
      "Thanks, Melanie!"                             | ""
      "Wow, that's great!"                           | ""
      lol                                            | ""
      haha                                           | ""
      Bye                                            | ""
      See you                                        | ""
      Sure!                                          | ""
      Congrats!                                      | ""
      Talk to you soon!                              | ""
      Thanks for always having my back.              | ""
      Thank you so much for the lovely birthday card! | ""
      "Thanks to my therapist, I sleep much better." | "Thanks to my therapist, I sleep much better."
      That's really sweet.                           | ""
      "Totally agree, Mel."                          | ""
      I love it                                      | ""
      It's special to me.                            | ""
      How have you been?                             | ""
      What's up with you?                            | ""
      What's up with you                             | ""
      Really?!                                       | ""
      Did you know I adopted a puppy?                | ""
      I adopted a puppy.                             | I adopted a puppy.
      "Hey Mel, I adopted a puppy!"                  | I adopted a puppy!
      "Wow, I ran a marathon last week!"             | I ran a marathon last week!
      "Oh wow, we finally moved to Lisbon."          | We finally moved to Lisbon.
      "So, I signed up for a pottery class."         | I signed up for a pottery class.
      So many people came to the parade.             | So many people came to the parade.
      "Well-being matters a lot to my whole family." | "Well-being matters a lot to my whole family."
      I fell off my bike lol                         | I fell off my bike
      "The pride parade downtown was huge, right?"   | The pride parade downtown was huge.
      I have two kids.                               | I have two kids.
      No one came to my party.                       | No one came to my party.
      When I was a kid I painted every day           | When I was a kid I painted every day
      "yeah, my kids love the beach"                 | My kids love the beach
      "Oh, yesterday, I ran a marathon."             | "Yesterday, I ran a marathon."
      """)
  void keepsContentAndDropsFillerAndQuestions(String sentence, String expected) {
    assertThat(filter.keep(sentence).orElse("")).isEqualTo(expected);
  }

  /**
   * The default minimum, two content words: short statements stay, greetings, reactions and
   * addresses do not.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "Hey Jon! The store's doing great!"            | The store's doing great!
      I'm not giving up.                             | I'm not giving up.
      It's Shia Labeouf!                             | It's Shia Labeouf!
      I love it                                      | I love it
      "Glad to be part of it."                       | ""
      "That's gorgeous, Caroline!"                   | ""
      "No worries, Jon!"                             | ""
      "Ha, ha!"                                      | ""
      "Woah, cool!"                                  | ""
      Good to see you!                               | ""
      Thanks for always having my back.              | ""
      What got you into running?                     | ""
      """)
  void keepsTwoWordStatementsAtTheDefault(String sentence, String expected) {
    assertThat(
            new FillerFilter(OfflineExtractor.Options.defaults().minContentWords())
                .keep(sentence)
                .orElse(""))
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "That's gorgeous, Caroline!"        | 1
      "Way to go, Jon!"                   | 1
      "We met in Lisbon, Portugal."       | 3
      "Caroline, I painted it."           | 3
      I adopted a puppy                   | 3
      Good to see you!                    | 0
      I'm swamped with the kids & work.   | 4
      My sister and I went hiking.        | 4
      We went camping with our kids.      | 4
      "Wow, love that painting!"          | 2
      I have 3 kids                       | 3
      """)
  void countsContentWordsWithFirstPersonOnce(String sentence, int expected) {
    assertThat(FillerFilter.contentWords(sentence)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      How have you been?            | true
      Really?!                      | true
      Did you see it? 😀            | true
      What did you do               | true
      What a day                    | false
      When I was a kid I swam       | false
      I went there.                 | false
      It was great!!                | false
      """)
  void recognisesQuestions(String sentence, boolean expected) {
    assertThat(FillerFilter.isQuestion(sentence)).isEqualTo(expected);
  }
}
