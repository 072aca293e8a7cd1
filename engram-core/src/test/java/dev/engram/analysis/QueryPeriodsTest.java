package dev.engram.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.analysis.QueryAnalyzer.Period;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryPeriodsTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-05-15T12:00:00Z"), ZoneOffset.UTC);

  private static Period period(String from, String to) {
    return new Period(Instant.parse(from + "T00:00:00Z"), Instant.parse(to + "T00:00:00Z"));
  }

  @Test
  void aMonthAndYearIsThatMonth() {
    assertThat(QueryPeriods.of("What did Alice do in May 2023?", CLOCK))
        .containsExactly(period("2023-05-01", "2023-06-01"));
    assertThat(QueryPeriods.of("what happened in december, 2022", CLOCK))
        .containsExactly(period("2022-12-01", "2023-01-01"));
  }

  @Test
  void aDayIsThatDayAndTheWeekAfter() {
    Period oct13 = period("2023-10-13", "2023-10-21");
    assertThat(QueryPeriods.of("What did she show on October 13, 2023?", CLOCK))
        .containsExactly(oct13);
    assertThat(QueryPeriods.of("What did she show on 13 October, 2023?", CLOCK))
        .containsExactly(oct13);
    assertThat(QueryPeriods.of("What did she show on 2023-10-13?", CLOCK)).containsExactly(oct13);
  }

  @Test
  void aYearIsThatYear() {
    assertThat(QueryPeriods.of("Where did Bob travel in 2022?", CLOCK))
        .containsExactly(period("2022-01-01", "2023-01-01"));
  }

  @Test
  void aMonthWithoutAYearIsThatMonthOfTheRecentYears() {
    List<Period> june = QueryPeriods.of("When did Melanie go camping in June?", CLOCK);
    assertThat(june)
        .hasSize(QueryPeriods.YEARS_BACK + 1)
        .contains(
            period("2024-06-01", "2024-07-01"),
            period("2023-06-01", "2023-07-01"),
            period("2014-06-01", "2014-07-01"));
  }

  @Test
  void relativePeriodsFollowTheClock() {
    assertThat(QueryPeriods.of("what did I cook yesterday", CLOCK))
        .containsExactly(period("2024-05-14", "2024-05-15"));
    assertThat(QueryPeriods.of("books I read last year", CLOCK))
        .containsExactly(period("2023-01-01", "2024-01-01"));
    assertThat(QueryPeriods.of("plans for this month", CLOCK))
        .containsExactly(period("2024-05-01", "2024-06-01"));
    // 2024-05-15 is a Wednesday: last week is Monday 6 to Sunday 12 May
    assertThat(QueryPeriods.of("who did I meet last week", CLOCK))
        .containsExactly(period("2024-05-06", "2024-05-13"));
  }

  @Test
  void aQueryWithoutADateNamesNoPeriod() {
    assertThat(QueryPeriods.of("When did Caroline go to the support group?", CLOCK)).isEmpty();
    assertThat(QueryPeriods.of("May I ask what Alice likes?", CLOCK)).isEmpty();
    assertThat(QueryPeriods.of("She scored 2023 points", CLOCK)).isEmpty();
  }
}
