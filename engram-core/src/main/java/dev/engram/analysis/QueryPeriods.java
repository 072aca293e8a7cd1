package dev.engram.analysis;

import dev.engram.analysis.QueryAnalyzer.Period;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The periods a query names, as half-open intervals of event time, in the clock's zone:
 *
 * <ul>
 *   <li>a day: "13 October 2023", "October 13, 2023", "2023-10-13": that day and the week after it
 *       (what happened on a day is often told a few days later);
 *   <li>a month: "May 2023", "in May of 2023": that month; a month without a year ("in June"): that
 *       month of each of the last {@value #YEARS_BACK} years and the current one;
 *   <li>a year: "in 2022", "during 2022": that year;
 *   <li>relative to the clock: "today", "yesterday", "this/last week", "this/last month",
 *       "this/last year".
 * </ul>
 *
 * A query naming none gives nothing. The English periods of {@link EnglishQueryAnalyzer}.
 */
final class QueryPeriods {
  /** How many past years a month named without a year covers. */
  static final int YEARS_BACK = 10;

  /** Days after a named day that still count as that day's (told later). */
  static final int DAY_SLACK = 7;

  private static final String MONTHS =
      "january|february|march|april|may|june|july|august|september|october"
          + "|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile(
          "\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(" + MONTHS + ")\\.?,?\\s+(\\d{4})\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile(
          "\\b(" + MONTHS + ")\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern ISO_DAY = Pattern.compile("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b");
  private static final Pattern MONTH_YEAR =
      Pattern.compile(
          "\\b(" + MONTHS + ")\\.?,?\\s+(?:of\\s+)?(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_ALONE =
      Pattern.compile(
          "\\b(?:in|during|since|through|of)\\s+(january|february|march|april|may|june|july|august|september|october"
              + "|november|december)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern YEAR =
      Pattern.compile(
          "\\b(?:in|during|of|since|through)\\s+((?:19|20)\\d{2})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern RELATIVE =
      Pattern.compile(
          "\\b(today|yesterday|(?:this|last|past)\\s+(?:week|month|year))\\b",
          Pattern.CASE_INSENSITIVE);

  private QueryPeriods() {}

  static List<Period> of(String query, Clock clock) {
    ZoneId zone = clock.getZone();
    List<Period> out = new ArrayList<>();
    StringBuilder rest = new StringBuilder(query);
    for (Matcher m = DAY_MONTH_YEAR.matcher(query); m.find(); ) {
      day(out, zone, year(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1)));
      blank(rest, m);
    }
    for (Matcher m = MONTH_DAY_YEAR.matcher(query); m.find(); ) {
      day(out, zone, year(m.group(3)), month(m.group(1)), Integer.parseInt(m.group(2)));
      blank(rest, m);
    }
    for (Matcher m = ISO_DAY.matcher(query); m.find(); ) {
      int mo = Integer.parseInt(m.group(2));
      if (mo >= 1 && mo <= 12) {
        day(out, zone, year(m.group(1)), Month.of(mo), Integer.parseInt(m.group(3)));
      }
      blank(rest, m);
    }
    String left = rest.toString();
    for (Matcher m = MONTH_YEAR.matcher(left); m.find(); ) {
      LocalDate first = LocalDate.of(year(m.group(2)), month(m.group(1)), 1);
      out.add(between(first, first.plusMonths(1), zone));
      left =
          left.substring(0, m.start()) + " ".repeat(m.end() - m.start()) + left.substring(m.end());
    }
    LocalDate today = LocalDate.now(clock);
    for (Matcher m = MONTH_ALONE.matcher(left); m.find(); ) {
      Month month = month(m.group(1));
      for (int y = today.getYear() - YEARS_BACK; y <= today.getYear(); y++) {
        LocalDate first = LocalDate.of(y, month, 1);
        out.add(between(first, first.plusMonths(1), zone));
      }
    }
    for (Matcher m = YEAR.matcher(left); m.find(); ) {
      LocalDate first = LocalDate.of(year(m.group(1)), 1, 1);
      out.add(between(first, first.plusYears(1), zone));
    }
    for (Matcher m = RELATIVE.matcher(left); m.find(); ) {
      out.add(relative(m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " "), today, zone));
    }
    return out;
  }

  private static Period relative(String phrase, LocalDate today, ZoneId zone) {
    LocalDate monday = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    return switch (phrase) {
      case "today" -> between(today, today.plusDays(1), zone);
      case "yesterday" -> between(today.minusDays(1), today, zone);
      case "this week" -> between(monday, monday.plusWeeks(1), zone);
      case "last week", "past week" -> between(monday.minusWeeks(1), monday, zone);
      case "this month" ->
          between(today.withDayOfMonth(1), today.withDayOfMonth(1).plusMonths(1), zone);
      case "last month", "past month" ->
          between(today.withDayOfMonth(1).minusMonths(1), today.withDayOfMonth(1), zone);
      case "this year" ->
          between(today.withDayOfYear(1), today.withDayOfYear(1).plusYears(1), zone);
      default ->
          between(
              today.withDayOfYear(1).minusYears(1), today.withDayOfYear(1), zone); // last/past year
    };
  }

  private static void day(List<Period> out, ZoneId zone, int year, Month month, int day) {
    if (day < 1 || day > month.length(java.time.Year.isLeap(year))) {
      return;
    }
    LocalDate d = LocalDate.of(year, month, day);
    out.add(between(d, d.plusDays(1 + DAY_SLACK), zone));
  }

  private static Period between(LocalDate from, LocalDate to, ZoneId zone) {
    return new Period(from.atStartOfDay(zone).toInstant(), to.atStartOfDay(zone).toInstant());
  }

  private static void blank(StringBuilder s, Matcher m) {
    for (int i = m.start(); i < m.end(); i++) {
      s.setCharAt(i, ' ');
    }
  }

  private static int year(String s) {
    return Integer.parseInt(s);
  }

  private static Month month(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (Month m : Month.values()) {
      if (m.name()
          .toLowerCase(Locale.ROOT)
          .startsWith(n.length() > 3 && n.startsWith("sept") ? "sep" : n)) {
        return m;
      }
    }
    throw new IllegalArgumentException("not a month: " + name);
  }
}
