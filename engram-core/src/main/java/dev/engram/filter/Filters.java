package dev.engram.filter;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The typed Java form of the filter language, beside mem0's JSON form ({@link Mem0Filters}); both
 * give the same {@link Filter} tree, so a filter means the same whichever way it was written.
 *
 * <pre>{@code
 * Filter f = Filters.eq("role", "user")
 *     .and(Filters.gte("event_time", Instant.parse("2024-01-01T00:00:00Z")))
 *     .and(Filters.in("metadata.topic", "food", "travel").or(Filters.exists("metadata.pinned")));
 * // the same as Mem0Filters.parse("{\"AND\": [{\"role\": \"user\"}, {\"event_time\": {\"gte\": \"2024-01-01\"}},
 * //     {\"OR\": [{\"metadata.topic\": [\"food\", \"travel\"]}, {\"metadata.pinned\": \"*\"}]}]}")
 * }</pre>
 *
 * <p>A field name is a built-in field ({@code user_id}, {@code agent_id}, {@code run_id}, {@code
 * actor_id}, {@code role}, {@code hash}, {@code memory}, {@code source_id}, {@code created_at},
 * {@code updated_at}, {@code event_time}, {@code expiration_date}) or a metadata key; {@code
 * metadata.<key>} always names a metadata key. Values are strings, numbers or booleans; time fields
 * also take an {@link Instant}, an ISO-8601 date or date-time string or epoch milliseconds. A value
 * that does not suit its field or operator throws a {@link dev.engram.ValidationException} naming
 * {@code filters.<field>}. Combine with {@link Filter#and(Filter)}, {@link Filter#or(Filter)} and
 * {@link Filter#negate()}, or with {@link #and}, {@link #or} and {@link #not}.
 */
public final class Filters {
  private Filters() {}

  /** Matches every memory. */
  public static Filter all() {
    return Filter.all();
  }

  /** {@code field == value} (mem0: {@code {"field": value}}). */
  public static Filter eq(String field, Object value) {
    return compare(field, Op.EQ, value);
  }

  /** {@code field != value}; a memory without the field matches. */
  public static Filter ne(String field, Object value) {
    return compare(field, Op.NE, value);
  }

  /** {@code field > value}. */
  public static Filter gt(String field, Object value) {
    return compare(field, Op.GT, value);
  }

  /** {@code field >= value}. */
  public static Filter gte(String field, Object value) {
    return compare(field, Op.GTE, value);
  }

  /** {@code field < value}. */
  public static Filter lt(String field, Object value) {
    return compare(field, Op.LT, value);
  }

  /** {@code field <= value}. */
  public static Filter lte(String field, Object value) {
    return compare(field, Op.LTE, value);
  }

  /** The field equals one of the values (mem0: {@code {"field": [a, b]}}); at least one value. */
  public static Filter in(String field, Object... values) {
    return compare(field, Op.IN, Arrays.asList(values));
  }

  /** The field equals one of the values; at least one value. */
  public static Filter in(String field, List<?> values) {
    return compare(field, Op.IN, values);
  }

  /** The field equals none of the values; at least one value. */
  public static Filter nin(String field, Object... values) {
    return compare(field, Op.NIN, Arrays.asList(values));
  }

  /** The field equals none of the values; at least one value. */
  public static Filter nin(String field, List<?> values) {
    return compare(field, Op.NIN, values);
  }

  /** The field's text contains {@code text} (case-sensitive). */
  public static Filter contains(String field, String text) {
    return compare(field, Op.CONTAINS, text);
  }

  /** The field's text contains {@code text}, ignoring case. */
  public static Filter icontains(String field, String text) {
    return compare(field, Op.ICONTAINS, text);
  }

  /** The field is present and not null (mem0: {@code {"field": "*"}}). */
  public static Filter exists(String field) {
    return new Filter.Exists(field(field));
  }

  /** The metadata key's name as a field: {@code metadata("topic")} is {@code "metadata.topic"}. */
  public static String metadata(String key) {
    return "metadata." + key;
  }

  /** All of the filters hold (mem0: {@code {"AND": [..]}}); at least one. */
  public static Filter and(Filter... parts) {
    return Filter.and(List.of(parts));
  }

  /** At least one of the filters holds (mem0: {@code {"OR": [..]}}); at least one. */
  public static Filter or(Filter... parts) {
    return Filter.or(List.of(parts));
  }

  /** The filter does not hold (mem0: {@code {"NOT": [inner]}}). */
  public static Filter not(Filter inner) {
    return Filter.not(inner);
  }

  /** {@code field op value} with any operator. */
  public static Filter compare(String field, Op op, Object value) {
    return new Filter.Comparison(field(field), op, value);
  }

  private static Field field(String name) {
    if (name == null || name.isBlank()) {
      throw new dev.engram.ValidationException("filters", "field names must not be blank");
    }
    return Field.of(name);
  }
}
