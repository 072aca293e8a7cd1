package dev.engram.filter;

import dev.engram.ValidationException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Comparison operators of the filter language, with mem0's names. */
public enum Op {
  EQ,
  NE,
  GT,
  GTE,
  LT,
  LTE,
  IN,
  NIN,
  CONTAINS,
  ICONTAINS;

  /** The operator's name in mem0's JSON form ({@code eq}, {@code icontains}...). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The operator with this wire name. */
  public static Op parse(String field, String name) {
    for (Op op : values()) {
      if (op.wireName().equals(name)) {
        return op;
      }
    }
    throw new ValidationException(
        "filters." + field,
        "unknown operator '"
            + name
            + "' (expected one of eq, ne, gt, gte, lt, lte, in, nin, contains, icontains)");
  }

  public boolean isRange() {
    return this == GT || this == GTE || this == LT || this == LTE;
  }

  public boolean isSet() {
    return this == IN || this == NIN;
  }

  /**
   * Checks that {@code value} suits this operator on {@code field}, and normalises it: metadata
   * numbers become {@link Double}, times become {@link Instant}, lists become immutable lists of
   * normalised scalars.
   */
  Object checkValue(Field field, Object value) {
    if (isSet()) {
      if (!(value instanceof List<?> list) || list.isEmpty()) {
        throw new ValidationException(
            field.path(), wireName() + " needs a non-empty list of values, got " + value);
      }
      List<Object> out = new ArrayList<>(list.size());
      for (Object v : list) {
        out.add(scalar(field, v));
      }
      return List.copyOf(out);
    }
    Object v = scalar(field, value);
    if ((this == CONTAINS || this == ICONTAINS) && !(v instanceof String)) {
      throw new ValidationException(field.path(), wireName() + " needs a string, got " + value);
    }
    if (isRange() && v instanceof Boolean) {
      throw new ValidationException(
          field.path(), wireName() + " needs a number, a string or a time, got " + value);
    }
    if (field.builtIn() != null
        && field.builtIn().kind() == BuiltInField.Kind.TIME
        && (this == CONTAINS || this == ICONTAINS)) {
      throw new ValidationException(field.path(), wireName() + " does not apply to a time field");
    }
    return v;
  }

  private static Object scalar(Field field, Object v) {
    if (v == null) {
      throw new ValidationException(
          field.path(), "null is not a valid filter value (use \"*\" to test presence)");
    }
    BuiltInField b = field.builtIn();
    if (b != null && b.kind() == BuiltInField.Kind.TIME) {
      return toInstant(field, v);
    }
    if (b != null) {
      if (!(v instanceof String)) {
        throw new ValidationException(field.path(), "needs a string, got " + v);
      }
      return v;
    }
    if (v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new ValidationException(field.path(), "needs a finite number, got " + v);
      }
      return d;
    }
    throw new ValidationException(field.path(), "needs a string, a number or a boolean, got " + v);
  }

  /** Parses an ISO-8601 date, date-time (UTC if no offset) or epoch milliseconds. */
  public static Instant toInstant(Field field, Object v) {
    if (v instanceof Instant i) {
      return i;
    }
    if (v instanceof Number n) {
      return Instant.ofEpochMilli(n.longValue());
    }
    if (v instanceof String s) {
      String t = s.trim();
      try {
        if (t.length() == 10) {
          return LocalDate.parse(t).atStartOfDay().toInstant(ZoneOffset.UTC);
        }
        try {
          return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
          return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
        }
      } catch (DateTimeParseException e) {
        throw new ValidationException(
            field.path(),
            "'"
                + s
                + "' is not an ISO-8601 date or date-time (for example 2024-05-01 or 2024-05-01T10:00:00Z)");
      }
    }
    throw new ValidationException(
        field.path(), "needs an ISO-8601 date or epoch milliseconds, got " + v);
  }
}
