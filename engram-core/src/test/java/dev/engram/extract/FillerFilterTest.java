package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.extract.OfflineExtractor.Requests;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FillerFilterTest {

  private final FillerFilter filter = new FillerFilter(3);

  /** What the extractor's default filter keeps of {@code sentence}; "" for nothing. */
  private static String keptAtTheDefault(String sentence, Requests requests) {
    return new FillerFilter(OfflineExtractor.Options.defaults().minContentWords())
        .keep(sentence, requests)
        .orElse("");
  }

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
      "so, app.config holds the database URI."       | app.config holds the database URI.
      "well, make_db_call() retries twice now."      | make_db_call() retries twice now.
      "so, npm installs everything in node_modules." | Npm installs everything in node_modules.
      """)
  void keepsContentAndDropsFillerAndQuestions(String sentence, String expected) {
    assertThat(filter.keep(sentence, Requests.WHOLE).orElse("")).isEqualTo(expected);
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
    assertThat(keptAtTheDefault(sentence, Requests.WHOLE)).isEqualTo(expected);
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

  /**
   * A question that opens with a statement keeps the statement: what a user tells an assistant
   * before asking for help is often the fact a later question is about.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "I'm moving the billing service to Java 21 by June 3, can you list the risks?"                       | I'm moving the billing service to Java 21 by June 3.
      "We switched the cache to Redis 7 last week, so how do I flush one key?"                            | We switched the cache to Redis 7 last week.
      "My thesis is due on 12 October - could you help me plan the chapters?"                             | My thesis is due on 12 October.
      "I run the nightly import with cron at 2 am; what happens if it overlaps the backup?"               | I run the nightly import with cron at 2 am.
      "The dashboard, which now loads in 250 ms, still feels slow on phones, any ideas?"                  | "The dashboard, which now loads in 250 ms, still feels slow on phones."
      "I prefer short answers in bullet points, so can you keep it brief?"                                | I prefer short answers in bullet points.
      "Hmm, what if the upload times out, can we retry?"                                                  | ""
      "Where should I start, can you tell me?"                                                            | ""
      "I'm not sure, is this right?"                                                                      | ""
      "How do I install Gradle 8 on a Mac?"                                                               | ""
      """)
  void keepsTheStatementAQuestionOpensWith(String sentence, String expected) {
    assertThat(keptAtTheDefault(sentence, Requests.STATEMENT)).isEqualTo(expected);
  }

  /**
   * Kept whole, a question that opens with a statement keeps what it asks too; one that opens with
   * the question, or whose statement says too little, is still dropped.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "I'm moving the billing service to Java 21 by June 3, can you list the risks?"         | "I'm moving the billing service to Java 21 by June 3, can you list the risks?"
      "Oh, we switched the cache to Redis 7 last week, so how do I flush one key?"         | "We switched the cache to Redis 7 last week, so how do I flush one key?"
      "I prefer short answers in bullet points, so can you keep it brief?"                 | "I prefer short answers in bullet points, so can you keep it brief?"
      "Hmm, what if the upload times out, can we retry?"                                   | ""
      "I'm not sure, is this right?"                                                       | ""
      "How do I install Gradle 8 on a Mac?"                                                | ""
      """)
  void keepsAQuestionThatOpensWithAStatementWhole(String sentence, String expected) {
    assertThat(keptAtTheDefault(sentence, Requests.WHOLE)).isEqualTo(expected);
  }

  /** A message without a kept sentence is kept as said if it says enough, questions included. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "What happens if the upload times out after 30 seconds?"  | true
      "Hmm, but what about caching the thumbnails in S3?"       | true
      How have you been?                                        | false
      "Thanks, see you!"                                        | false
      "Wow, really?"                                            | false
      """)
  void keepsAMessageVerbatimIfItSaysEnough(String text, boolean expected) {
    assertThat(
            new FillerFilter(OfflineExtractor.Options.defaults().minContentWords())
                .worthKeepingVerbatim(text))
        .isEqualTo(expected);
  }
}
