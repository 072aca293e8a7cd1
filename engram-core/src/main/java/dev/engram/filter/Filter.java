package dev.engram.filter;

import java.util.List;
import java.util.Objects;

/**
 * A typed condition on memories: comparisons of built-in fields or metadata keys, combined with
 * AND, OR and NOT. Stores translate it into their own query language and apply it inside the store;
 * {@link FilterEvaluator} gives the reference semantics that every translation must agree with.
 * Immutable; parse mem0's JSON form with {@link Mem0Filters}.
 */
public sealed interface Filter
    permits Filter.All, Filter.Comparison, Filter.Exists, Filter.And, Filter.Or, Filter.Not {

  /** The filter that matches every memory. */
  static Filter all() {
    return All.INSTANCE;
  }

  static Filter eq(String field, Object value) {
    return new Comparison(Field.of(field), Op.EQ, value);
  }

  static Filter compare(String field, Op op, Object value) {
    return new Comparison(Field.of(field), op, value);
  }

  static Filter and(List<Filter> parts) {
    return new And(parts);
  }

  static Filter or(List<Filter> parts) {
    return new Or(parts);
  }

  static Filter not(Filter inner) {
    return new Not(inner);
  }

  /**
   * This filter and {@code other} both hold. A chain {@code a.and(b).and(c)} gives one {@link And}
   * of {@code [a, b, c]}, the tree mem0's {@code {"AND": [a, b, c]}} gives.
   */
  default Filter and(Filter other) {
    java.util.Objects.requireNonNull(other, "other");
    List<Filter> parts = new java.util.ArrayList<>();
    if (this instanceof And a) {
      parts.addAll(a.parts());
    } else {
      parts.add(this);
    }
    parts.add(other);
    return new And(parts);
  }

  /**
   * This filter or {@code other} holds. A chain {@code a.or(b).or(c)} gives one {@link Or} of
   * {@code [a, b, c]}, the tree mem0's {@code {"OR": [a, b, c]}} gives.
   */
  default Filter or(Filter other) {
    java.util.Objects.requireNonNull(other, "other");
    List<Filter> parts = new java.util.ArrayList<>();
    if (this instanceof Or o) {
      parts.addAll(o.parts());
    } else {
      parts.add(this);
    }
    parts.add(other);
    return new Or(parts);
  }

  /** This filter does not hold (mem0's {@code {"NOT": [this]}}). */
  default Filter negate() {
    return new Not(this);
  }

  /** This filter AND {@code other}, simplifying away {@link All}. */
  default Filter andAlso(Filter other) {
    if (this instanceof All) {
      return other;
    }
    if (other instanceof All) {
      return this;
    }
    return new And(List.of(this, other));
  }

  /** Matches everything. */
  enum All implements Filter {
    INSTANCE
  }

  /**
   * {@code field op value}. For {@link Op#IN} and {@link Op#NIN} the value is a non-empty list of
   * scalars; for the others a scalar (String, Number or Boolean). Values are checked by {@link
   * Op#checkValue}.
   */
  record Comparison(Field field, Op op, Object value) implements Filter {
    public Comparison {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(op, "op");
      value = op.checkValue(field, value);
    }
  }

  /** The field is present and not null (mem0's {@code "*"} wildcard). */
  record Exists(Field field) implements Filter {
    public Exists {
      Objects.requireNonNull(field, "field");
    }
  }

  /** All parts match; at least one part. */
  record And(List<Filter> parts) implements Filter {
    public And {
      parts = nonEmpty("AND", parts);
    }
  }

  /** At least one part matches; at least one part. */
  record Or(List<Filter> parts) implements Filter {
    public Or {
      parts = nonEmpty("OR", parts);
    }
  }

  /** The inner filter does not match. */
  record Not(Filter inner) implements Filter {
    public Not {
      Objects.requireNonNull(inner, "inner");
    }
  }

  private static List<Filter> nonEmpty(String name, List<Filter> parts) {
    List<Filter> copy = List.copyOf(parts);
    if (copy.isEmpty()) {
      throw new dev.engram.ValidationException("filters." + name, "needs at least one condition");
    }
    return copy;
  }
}
