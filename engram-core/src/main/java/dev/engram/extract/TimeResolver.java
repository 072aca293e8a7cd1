package dev.engram.extract;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds absolute dates to relative time expressions, keeping the original wording: against a message
 * of 8 May 2023 (a Monday), "yesterday" becomes "yesterday (7 May 2023)". All dates are UTC
 * calendar dates; weeks run Monday to Sunday (ISO). What each expression resolves to, with that
 * base:
 *
 * <ul>
 *   <li>{@code yesterday}, {@code last night}: 7 May 2023; {@code today}, {@code tonight}, {@code
 *       this morning}: 8 May 2023; {@code tomorrow}: 9 May 2023; {@code the day before yesterday},
 *       {@code the day after tomorrow}: two days off;
 *   <li>{@code last/this/next week}: "the week of" its Monday (1, 8, 15 May 2023);
 *   <li>{@code last/this/next weekend}: "the weekend of" its Saturday, the weekend of the previous,
 *       current and next ISO week (6, 13, 20 May 2023);
 *   <li>{@code last/this/next month}: April, May, June 2023; {@code last/this/next year}: 2022,
 *       2023, 2024;
 *   <li>{@code last Saturday}: the latest Saturday strictly before the base (6 May 2023); {@code
 *       next Friday}: the first Friday strictly after it (12 May 2023); {@code this Friday}: the
 *       Friday of the base's ISO week;
 *   <li>{@code N days ago}: a date; {@code N weeks ago}: "the week of" a Monday; {@code N months
 *       ago}: a month; {@code N years ago}: a year. N is digits, {@code a}/{@code an}, {@code one}
 *       to {@code twelve} or {@code a couple of}.
 *   <li>{@code in N days}, {@code in N weeks} (also {@code within}, {@code N weeks from now}): the
 *       date N days or weeks on (22 May 2023 for "in two weeks"); {@code in N months}: a month;
 *       {@code in N years}: a year. After {@code times}, {@code once}, {@code twice} or {@code per}
 *       ("three times in a week") it is a rate and left alone.
 *   <li>{@code the end of the/this week}, {@code month}, {@code year}: its last day (14 May, 31
 *       May, 31 December 2023); {@code the end of next month}: 30 June 2023.
 * </ul>
 *
 * Deadlines and plans in chats with an assistant are mostly worded the forward way ("by the end of
 * the month", "in two weeks"), so both directions are resolved.
 *
 * <p>{@code this past} reads as {@code last} and {@code this coming} as {@code next}. Month
 * arithmetic is calendar arithmetic ({@link YearMonth}), so month and year boundaries and leap
 * years come out right. An expression already followed by a parenthesis is left alone, so resolving
 * twice changes nothing. An expression tied to a date the sentence names is left alone too, since
 * the message's date is not its base: every expression of a sentence that says which day its today
 * is ("if today is March 3, 2024, a week from today is...") or opens with a date as its label
 * ("March 22: tasks for next week"), and an expression counted from a named date ("in a week from
 * January 10"). Bare weekday names ("on Saturday") and vague expressions ("recently", "a few days
 * ago") are not resolved.
 *
 * <p>Stateless and thread-safe.
 */
final class TimeResolver {

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.ENGLISH);
  private static final DateTimeFormatter MONTH =
      DateTimeFormatter.ofPattern("MMMM uuuu", Locale.ENGLISH);
  private static final String DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";
  private static final String PART = "(?:\\s+(?:morning|afternoon|evening|night))?";
  private static final Map<String, Integer> NUMBERS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("an", 1),
          Map.entry("one", 1),
          Map.entry("two", 2),
          Map.entry("three", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10),
          Map.entry("eleven", 11),
          Map.entry("twelve", 12),
          Map.entry("a couple of", 2));
  private static final String COUNT =
      "\\d{1,3}|a couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";

  /** A count of days or weeks read as a rate ("three times in a week"), not as a date. */
  private static final Pattern RATE_BEFORE =
      Pattern.compile("(?:times|once|twice|per)\\s*$", Pattern.CASE_INSENSITIVE);

  private static final Pattern EXPRESSION =
      Pattern.compile(
          "(?<![\\p{L}\\p{N}])(?:"
              + "(?<before>the day before yesterday)"
              + "|(?<after>the day after tomorrow)"
              + "|(?<yesterday>yesterday"
              + PART
              + "|last night)"
              + "|(?<today>today|tonight|this (?:morning|afternoon|evening))"
              + "|(?<tomorrow>tomorrow"
              + PART
              + ")"
              + "|(?<rel>last|this past|this coming|this|next)\\s+(?<unit>weekend|week|month|year|"
              + DAYS
              + ")"
              + "|(?<num>"
              + COUNT
              + ")\\s+(?<ago>day|week|month|year)s?\\s+ago"
              + "|(?:in|within)\\s+(?<innum>"
              + COUNT
              + ")\\s+(?<in>day|week|month|year)s?(?:\\s+time)?"
              + "|(?<fromnum>"
              + COUNT
              + ")\\s+(?<from>day|week|month|year)s?\\s+from\\s+(?:now|today)"
              + "|(?:the\\s+)?end\\s+of\\s+(?<endrel>the|this|next)\\s+(?<end>week|month|year)"
              + ")(?:'s)?(?![\\p{L}\\p{N}])",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern ANNOTATED = Pattern.compile("^\\s*\\(");

  private static final String MONTHS =
      "(?:January|February|March|April|May|June|July|August|September|October|November|December"
          + "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?";

  /** A calendar date written out: "March 3", "3rd of March, 2024", "2024-03-03". */
  private static final String CALENDAR_DATE =
      "(?:"
          + MONTHS
          + "\\s+\\d{1,2}(?:st|nd|rd|th)?(?![\\p{L}\\p{N}])(?:,?\\s+\\d{4})?"
          + "|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?"
          + MONTHS
          + "(?![\\p{L}])(?:,?\\s+\\d{4})?"
          + "|\\d{4}-\\d{2}-\\d{2})";

  /** A sentence that says which day its "today" is: "if today is March 3, 2024, ...". */
  private static final Pattern OWN_TODAY =
      Pattern.compile(
          "(?<![\\p{L}\\p{N}])(?i:today|now)(?:'s\\s+date)?\\s+(?:is|was|were|would\\s+be|will\\s+be)\\s+"
              + "(?:the\\s+)?"
              + CALENDAR_DATE);

  /** A sentence labelled with a date: "- **March 22:** next week's tasks". */
  private static final Pattern DATE_LABEL =
      Pattern.compile("^[\\s\\-*#>+_]*" + CALENDAR_DATE + "\\s*[*_]*\\s*:");

  /** An expression counted from a named date: "a week from January 10". */
  private static final Pattern FROM_DATE =
      Pattern.compile("\\s*,?\\s*(?i:from|after|before|since)\\s+" + CALENDAR_DATE);

  private TimeResolver() {}

  /**
   * {@code sentence} with each relative time expression followed by its absolute date; unchanged if
   * no base.
   */
  static String resolve(String sentence, Instant base) {
    if (base == null || OWN_TODAY.matcher(sentence).find() || DATE_LABEL.matcher(sentence).find()) {
      return sentence;
    }
    LocalDate today = LocalDate.ofInstant(base, ZoneOffset.UTC);
    Matcher m = EXPRESSION.matcher(sentence);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      out.append(sentence, last, m.end());
      last = m.end();
      if (m.group("in") != null && RATE_BEFORE.matcher(sentence.substring(0, m.start())).find()) {
        continue;
      }
      if (FROM_DATE.matcher(sentence).region(m.end(), sentence.length()).lookingAt()) {
        continue;
      }
      if (!ANNOTATED.matcher(sentence.substring(m.end())).find()) {
        out.append(" (").append(absolute(m, today)).append(')');
      }
    }
    return out.append(sentence, last, sentence.length()).toString();
  }

  private static String absolute(Matcher m, LocalDate today) {
    if (m.group("before") != null) {
      return DAY.format(today.minusDays(2));
    }
    if (m.group("after") != null) {
      return DAY.format(today.plusDays(2));
    }
    if (m.group("yesterday") != null) {
      return DAY.format(today.minusDays(1));
    }
    if (m.group("today") != null) {
      return DAY.format(today);
    }
    if (m.group("tomorrow") != null) {
      return DAY.format(today.plusDays(1));
    }
    if (m.group("rel") != null) {
      return relative(
          m.group("rel").toLowerCase(Locale.ROOT), m.group("unit").toLowerCase(Locale.ROOT), today);
    }
    if (m.group("in") != null) {
      return ahead(number(m.group("innum")), m.group("in").toLowerCase(Locale.ROOT), today);
    }
    if (m.group("from") != null) {
      return ahead(number(m.group("fromnum")), m.group("from").toLowerCase(Locale.ROOT), today);
    }
    if (m.group("end") != null) {
      return end(
          m.group("endrel").toLowerCase(Locale.ROOT).equals("next") ? 1 : 0,
          m.group("end").toLowerCase(Locale.ROOT),
          today);
    }
    return ago(number(m.group("num")), m.group("ago").toLowerCase(Locale.ROOT), today);
  }

  /** N units after the base: a date for days and weeks, a month, a year. */
  private static String ahead(int n, String unit, LocalDate today) {
    return switch (unit) {
      case "day" -> DAY.format(today.plusDays(n));
      case "week" -> DAY.format(today.plusWeeks(n));
      case "month" -> MONTH.format(YearMonth.from(today).plusMonths(n));
      default -> String.valueOf(today.getYear() + n);
    };
  }

  /** The last day of the base's (step 0) or the next (step 1) ISO week, month or year. */
  private static String end(int step, String unit, LocalDate today) {
    return switch (unit) {
      case "week" -> DAY.format(today.plusWeeks(step).with(DayOfWeek.SUNDAY));
      case "month" -> DAY.format(YearMonth.from(today).plusMonths(step).atEndOfMonth());
      default -> DAY.format(LocalDate.of(today.getYear() + step, 12, 31));
    };
  }

  private static String relative(String rel, String unit, LocalDate today) {
    int step =
        switch (rel) {
          case "last", "this past" -> -1;
          case "next", "this coming" -> 1;
          default -> 0;
        };
    LocalDate monday = today.with(DayOfWeek.MONDAY);
    return switch (unit) {
      case "week" -> "the week of " + DAY.format(monday.plusWeeks(step));
      case "weekend" ->
          "the weekend of " + DAY.format(monday.plusWeeks(step).with(DayOfWeek.SATURDAY));
      case "month" -> MONTH.format(YearMonth.from(today).plusMonths(step));
      case "year" -> String.valueOf(today.getYear() + step);
      default -> {
        DayOfWeek day = DayOfWeek.valueOf(unit.toUpperCase(Locale.ROOT));
        LocalDate date =
            step < 0
                ? today.with(TemporalAdjusters.previous(day))
                : step > 0 ? today.with(TemporalAdjusters.next(day)) : today.with(day);
        yield DAY.format(date);
      }
    };
  }

  private static String ago(int n, String unit, LocalDate today) {
    return switch (unit) {
      case "day" -> DAY.format(today.minusDays(n));
      case "week" -> "the week of " + DAY.format(today.minusWeeks(n).with(DayOfWeek.MONDAY));
      case "month" -> MONTH.format(YearMonth.from(today).minusMonths(n));
      default -> String.valueOf(today.getYear() - n);
    };
  }

  private static int number(String word) {
    String w = word.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    Integer n = NUMBERS.get(w);
    return n != null ? n : Integer.parseInt(w);
  }
}
