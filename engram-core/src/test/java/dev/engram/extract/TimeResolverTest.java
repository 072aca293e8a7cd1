package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeResolverTest {

  /** 8 May 2023 is a Monday. */
  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      2023-05-08T13:56:00Z | went to a support group yesterday.   | went to a support group yesterday (7 May 2023).
      2023-05-08T13:56:00Z | ran yesterday morning                | ran yesterday morning (7 May 2023)
      2023-05-08T13:56:00Z | slept badly last night               | slept badly last night (7 May 2023)
      2023-05-08T13:56:00Z | is moving today                      | is moving today (8 May 2023)
      2023-05-08T13:56:00Z | cooks tonight                        | cooks tonight (8 May 2023)
      2023-05-08T13:56:00Z | swam this morning                    | swam this morning (8 May 2023)
      2023-05-08T13:56:00Z | flies tomorrow                       | flies tomorrow (9 May 2023)
      2023-05-08T13:56:00Z | came the day before yesterday        | came the day before yesterday (6 May 2023)
      2023-05-08T13:56:00Z | leaves the day after tomorrow        | leaves the day after tomorrow (10 May 2023)
      2023-05-08T13:56:00Z | painted last week                    | painted last week (the week of 1 May 2023)
      2023-05-08T13:56:00Z | is busy this week                    | is busy this week (the week of 8 May 2023)
      2023-05-08T13:56:00Z | starts next week                     | starts next week (the week of 15 May 2023)
      2023-05-08T13:56:00Z | camped last weekend                  | camped last weekend (the weekend of 6 May 2023)
      2023-05-08T13:56:00Z | camped this past weekend             | camped this past weekend (the weekend of 6 May 2023)
      2023-05-08T13:56:00Z | camps this weekend                   | camps this weekend (the weekend of 13 May 2023)
      2023-05-08T13:56:00Z | camps next weekend                   | camps next weekend (the weekend of 20 May 2023)
      2023-05-08T13:56:00Z | moved last month                     | moved last month (April 2023)
      2023-05-08T13:56:00Z | moves this month                     | moves this month (May 2023)
      2023-05-08T13:56:00Z | camps next month                     | camps next month (June 2023)
      2023-05-08T13:56:00Z | painted that lake last year!         | painted that lake last year (2022)!
      2023-05-08T13:56:00Z | graduates this year                  | graduates this year (2023)
      2023-05-08T13:56:00Z | retires next year                    | retires next year (2024)
      2023-05-08T13:56:00Z | ran last Saturday                    | ran last Saturday (6 May 2023)
      2023-05-08T13:56:00Z | met last Monday                      | met last Monday (1 May 2023)
      2023-05-08T13:56:00Z | dances next Friday                   | dances next Friday (12 May 2023)
      2023-05-08T13:56:00Z | dances this Friday                   | dances this Friday (12 May 2023)
      2023-05-08T13:56:00Z | dances this coming Monday            | dances this coming Monday (15 May 2023)
      2023-05-08T13:56:00Z | called two days ago                  | called two days ago (6 May 2023)
      2023-05-08T13:56:00Z | called 2 days ago                    | called 2 days ago (6 May 2023)
      2023-05-08T13:56:00Z | called a couple of days ago          | called a couple of days ago (6 May 2023)
      2023-05-08T13:56:00Z | joined 3 weeks ago                   | joined 3 weeks ago (the week of 17 April 2023)
      2023-05-08T13:56:00Z | quit a month ago                     | quit a month ago (April 2023)
      2023-05-08T13:56:00Z | married ten years ago                | married ten years ago (2013)
      2023-05-08T13:56:00Z | Last week I went hiking.             | Last week (the week of 1 May 2023) I went hiking.
      2023-05-08T13:56:00Z | YESTERDAY was fun                    | YESTERDAY (7 May 2023) was fun
      2023-05-08T13:56:00Z | loved last week's party              | loved last week's (the week of 1 May 2023) party
      2023-05-08T13:56:00Z | ran yesterday, swims tomorrow | ran yesterday (7 May 2023), swims tomorrow (9 May 2023)
      2023-05-08T13:56:00Z | went yesterday (7 May 2023)          | went yesterday (7 May 2023)
      2023-05-08T13:56:00Z | went on Saturday                     | went on Saturday
      2023-05-08T13:56:00Z | called a few days ago                | called a few days ago
      2023-05-08T13:56:00Z | yesterdays are gone                  | yesterdays are gone
      2023-05-08T13:56:00Z | spent the weekend there              | spent the weekend there
      2023-05-08T00:30:00Z | went yesterday                       | went yesterday (7 May 2023)
      2023-05-07T23:30:00Z | went yesterday                       | went yesterday (6 May 2023)
      2024-01-01T10:00:00Z | went yesterday                       | went yesterday (31 December 2023)
      2024-01-01T10:00:00Z | moved last year                      | moved last year (2023)
      2024-01-01T10:00:00Z | moved last month                     | moved last month (December 2023)
      2024-01-15T10:00:00Z | moved last month                     | moved last month (December 2023)
      2024-01-03T10:00:00Z | painted last week                    | painted last week (the week of 25 December 2023)
      2025-01-01T10:00:00Z | camped last weekend                 | camped last weekend (the weekend of 28 December 2024)
      2024-12-30T10:00:00Z | starts next week                     | starts next week (the week of 6 January 2025)
      2023-12-31T10:00:00Z | flies tomorrow                       | flies tomorrow (1 January 2024)
      2023-12-15T10:00:00Z | moves next month                     | moves next month (January 2024)
      2024-01-02T10:00:00Z | ran last Saturday                    | ran last Saturday (30 December 2023)
      2024-03-01T10:00:00Z | called two days ago                  | called two days ago (28 February 2024)
      2024-03-01T10:00:00Z | went yesterday                       | went yesterday (29 February 2024)
      2023-03-01T10:00:00Z | went yesterday                       | went yesterday (28 February 2023)
      2024-02-29T10:00:00Z | flies tomorrow                       | flies tomorrow (1 March 2024)
      2024-03-31T10:00:00Z | quit a month ago                     | quit a month ago (February 2024)
      2024-02-29T10:00:00Z | retires next year                    | retires next year (2025)
      """)
  void addsAbsoluteDatesKeepingTheWording(String base, String sentence, String expected) {
    assertThat(TimeResolver.resolve(sentence, Instant.parse(base))).isEqualTo(expected);
  }

  /** Deadlines and plans worded forward, as users give them to an assistant. 8 May 2023: Monday. */
  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      2023-05-08T13:56:00Z | ships the beta in two weeks              | ships the beta in two weeks (22 May 2023)
      2023-05-08T13:56:00Z | answers within 3 days                   | answers within 3 days (11 May 2023)
      2023-05-08T13:56:00Z | renews the lease in six months          | renews the lease in six months (November 2023)
      2023-05-08T13:56:00Z | retires in a year                       | retires in a year (2024)
      2023-05-08T13:56:00Z | demo is one week from today             | demo is one week from today (15 May 2023)
      2023-05-08T13:56:00Z | due 10 days from now                    | due 10 days from now (18 May 2023)
      2023-05-08T13:56:00Z | report due by the end of the month      | report due by the end of the month (31 May 2023)
      2023-05-08T13:56:00Z | done by end of this week                | done by end of this week (14 May 2023)
      2023-05-08T13:56:00Z | launch at the end of next month         | launch at the end of next month (30 June 2023)
      2023-05-08T13:56:00Z | audit before the end of the year        | audit before the end of the year (31 December 2023)
      2024-01-31T10:00:00Z | pays in a month                         | pays in a month (February 2024)
      2023-05-08T13:56:00Z | swims three times in a week             | swims three times in a week
      2023-05-08T13:56:00Z | runs twice in a week                    | runs twice in a week
      2023-05-08T13:56:00Z | "ships in two weeks (22 May 2023)"      | "ships in two weeks (22 May 2023)"
      """)
  void resolvesForwardExpressions(String base, String sentence, String expected) {
    assertThat(TimeResolver.resolve(sentence, Instant.parse(base))).isEqualTo(expected);
  }

  /** A date the sentence names, not the message's, is the base of these: they stay as written. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      "If today is March 3, 2024, then one week from today would be March 10, 2024."
      Assuming today is January 10 and you have until February 1 to meet your goal
      "Today's date is 2024-03-03, so tomorrow is a Monday."
      - **March 22:** Next week's tasks planned.
      "3rd of March: tidy up, then plan next month."
      "What date is it in a week from January 10, 2024?"
      due in 10 days from Sept. 5
      """)
  void leavesExpressionsCountedFromANamedDateAlone(String sentence) {
    assertThat(TimeResolver.resolve(sentence, Instant.parse("2023-05-08T13:56:00Z")))
        .isEqualTo(sentence);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      booked yesterday for March 22                 | booked yesterday (7 May 2023) for March 22
      "On March 2 I planned it, and today I start"  | "On March 2 I planned it, and today (8 May 2023) I start"
      in a week from now                            | in a week (15 May 2023) from now
      the deadline is May 20, in two weeks           | the deadline is May 20, in two weeks (22 May 2023)
      """)
  void resolvesBesideADateThatIsNotTheirBase(String sentence, String expected) {
    assertThat(TimeResolver.resolve(sentence, Instant.parse("2023-05-08T13:56:00Z")))
        .isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      went yesterday
      moves next month
      """)
  void leavesTextAloneWithoutATimestamp(String sentence) {
    assertThat(TimeResolver.resolve(sentence, null)).isEqualTo(sentence);
  }
}
