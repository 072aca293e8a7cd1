package dev.engram.sqlite;

import dev.engram.filter.BuiltInField;
import dev.engram.filter.Field;
import dev.engram.filter.Filter;
import dev.engram.filter.Op;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Translates a {@link Filter} into a SQL condition on the {@code memories} table (alias {@code m}) that agrees
 * exactly with {@link dev.engram.filter.FilterEvaluator}. Every condition evaluates to 0 or 1, never NULL, so that
 * NOT, AND and OR behave as in two-valued logic; {@code ne} and {@code nin} are written as {@code NOT} of
 * {@code eq} and {@code in}, so a missing field passes them.
 *
 * <ul>
 *   <li>Metadata: the key is found with {@code json_each(m.metadata)} and {@code key = ?} (keys are bound, so any
 *       character is safe). An array value matches if any element does; an object or null value matches nothing.
 *       json_each's {@code type} column keeps kinds apart: strings ({@code text}) compare only with strings,
 *       numbers ({@code integer}, {@code real}, compared as doubles) only with numbers, booleans ({@code true},
 *       {@code false}) only with booleans.
 *   <li>Strings: equality is exact; ranges use the Java-order collation and {@code icontains} the Unicode lower
 *       case of {@link SqlFunctions}; {@code contains} is {@code instr}, a plain substring test.
 *   <li>Times: instants compare as (epoch second, nano) row values; an expiration date as the start of its day
 *       (UTC).
 * </ul>
 *
 * <p>One known difference: SQLite treats {@code -0.0} and {@code 0.0} as equal numbers, where
 * {@link Double#compare} orders {@code -0.0} below {@code 0.0}.
 */
final class FilterSql {
  private FilterSql() {}

  /** Appends the condition for {@code filter} to {@code sql}. */
  static void append(Sql sql, Filter filter) {
    if (filter instanceof Filter.All) {
      sql.append("1");
    } else if (filter instanceof Filter.And and) {
      join(sql, and.parts(), " AND ");
    } else if (filter instanceof Filter.Or or) {
      join(sql, or.parts(), " OR ");
    } else if (filter instanceof Filter.Not not) {
      sql.append("(NOT ");
      append(sql, not.inner());
      sql.append(")");
    } else if (filter instanceof Filter.Exists exists) {
      exists(sql, exists.field());
    } else {
      Filter.Comparison c = (Filter.Comparison) filter;
      switch (c.op()) {
        case NE -> negated(sql, c.field(), Op.EQ, c.value());
        case NIN -> negated(sql, c.field(), Op.IN, c.value());
        default -> match(sql, c.field(), c.op(), c.value());
      }
    }
  }

  private static void join(Sql sql, List<Filter> parts, String operator) {
    sql.append("(");
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        sql.append(operator);
      }
      append(sql, parts.get(i));
    }
    sql.append(")");
  }

  private static void negated(Sql sql, Field field, Op op, Object value) {
    sql.append("(NOT ");
    match(sql, field, op, value);
    sql.append(")");
  }

  private static void exists(Sql sql, Field field) {
    BuiltInField b = field.builtIn();
    if (b == null) {
      sql.append("EXISTS (SELECT 1 FROM json_each(m.metadata) k WHERE k.key = ").param(field.name())
          .append(" AND k.type <> 'null')");
    } else if (b == BuiltInField.SOURCE_ID) {
      sql.append("(json_array_length(m.source_ids) > 0)");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      sql.append("(").append(timeColumns(b)[0]).append(")");
    } else {
      sql.append("(").append(stringColumn(b)).append(" IS NOT NULL)");
    }
  }

  /** The positive match of {@code field op value}: true if the field's value (or any list element) satisfies it. */
  private static void match(Sql sql, Field field, Op op, Object value) {
    BuiltInField b = field.builtIn();
    if (b == null) {
      sql.append("EXISTS (SELECT 1 FROM json_each(m.metadata) k WHERE k.key = ").param(field.name())
          .append(" AND CASE WHEN k.type = 'array' THEN EXISTS (SELECT 1 FROM json_each(k.value) e WHERE ");
      scalar(sql, "e.type", "e.value", op, value);
      sql.append(") ELSE ");
      scalar(sql, "k.type", "k.value", op, value);
      sql.append(" END)");
    } else if (b == BuiltInField.SOURCE_ID) {
      sql.append("EXISTS (SELECT 1 FROM json_each(m.source_ids) s WHERE ");
      scalar(sql, null, "s.value", op, value);
      sql.append(")");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      time(sql, timeColumns(b), op, value);
    } else {
      String column = stringColumn(b);
      sql.append("(").append(column).append(" IS NOT NULL AND ");
      scalar(sql, null, column, op, value);
      sql.append(")");
    }
  }

  /**
   * A scalar comparison of a JSON value of type {@code type} (a json_each type column, or null for a non-null
   * text column) and SQL value {@code v}.
   */
  private static void scalar(Sql sql, String type, String v, Op op, Object expected) {
    switch (op) {
      case EQ -> same(sql, type, v, expected);
      case IN -> {
        sql.append("(");
        List<?> values = (List<?>) expected;
        for (int i = 0; i < values.size(); i++) {
          if (i > 0) {
            sql.append(" OR ");
          }
          same(sql, type, v, values.get(i));
        }
        sql.append(")");
      }
      case CONTAINS -> {
        textGuard(sql, type);
        sql.append("instr(").append(v).append(", ").param(expected).append(") > 0)");
      }
      case ICONTAINS -> {
        textGuard(sql, type);
        sql.append("instr(").append(SqlFunctions.LOWER).append("(").append(v).append("), ")
            .param(((String) expected).toLowerCase(Locale.ROOT)).append(") > 0)");
      }
      case GT, GTE, LT, LTE -> range(sql, type, v, comparator(op), expected);
      default -> throw new IllegalStateException("unexpected operator " + op);
    }
  }

  private static void same(Sql sql, String type, String v, Object expected) {
    if (expected instanceof String s) {
      textGuard(sql, type);
      sql.append(v).append(" = ").param(s).append(")");
    } else if (expected instanceof Double d) {
      numberGuard(sql, type);
      sql.append("CAST(").append(v).append(" AS REAL) = ").param(d).append(")");
    } else if (expected instanceof Boolean bool && type != null) {
      sql.append("(").append(type).append(bool ? " = 'true')" : " = 'false')");
    } else {
      sql.append("0");
    }
  }

  private static void range(Sql sql, String type, String v, String comparator, Object expected) {
    if (expected instanceof String s) {
      textGuard(sql, type);
      sql.append(v).append(" COLLATE ").append(SqlFunctions.UTF16).append(comparator).param(s).append(")");
    } else if (expected instanceof Double d) {
      numberGuard(sql, type);
      sql.append("CAST(").append(v).append(" AS REAL)").append(comparator).param(d).append(")");
    } else {
      sql.append("0");
    }
  }

  /** Opens a parenthesis and, for JSON values, requires a string. */
  private static void textGuard(Sql sql, String type) {
    sql.append("(");
    if (type != null) {
      sql.append(type).append(" = 'text' AND ");
    }
  }

  /** Opens a parenthesis and requires a number (a text column never holds one). */
  private static void numberGuard(Sql sql, String type) {
    sql.append("(");
    sql.append(type == null ? "0 AND " : type + " IN ('integer', 'real') AND ");
  }

  private static void time(Sql sql, String[] columns, Op op, Object value) {
    String present = columns[0];
    String seconds = columns[1];
    String nanos = columns[2];
    sql.append("(").append(present).append(" AND ");
    switch (op) {
      case EQ -> sameInstant(sql, seconds, nanos, (Instant) value);
      case IN -> {
        sql.append("(");
        List<?> values = (List<?>) value;
        for (int i = 0; i < values.size(); i++) {
          if (i > 0) {
            sql.append(" OR ");
          }
          sameInstant(sql, seconds, nanos, (Instant) values.get(i));
        }
        sql.append(")");
      }
      case GT, GTE, LT, LTE -> {
        Instant t = (Instant) value;
        sql.append("(").append(seconds).append(", ").append(nanos).append(")").append(comparator(op))
            .append("(").param(t.getEpochSecond()).append(", ").param(t.getNano()).append(")");
      }
      default -> throw new IllegalStateException(op + " does not apply to a time field");
    }
    sql.append(")");
  }

  private static void sameInstant(Sql sql, String seconds, String nanos, Instant t) {
    sql.append("(").append(seconds).append(" = ").param(t.getEpochSecond()).append(" AND ").append(nanos)
        .append(" = ").param(t.getNano()).append(")");
  }

  private static String comparator(Op op) {
    return switch (op) {
      case GT -> " > ";
      case GTE -> " >= ";
      case LT -> " < ";
      case LTE -> " <= ";
      default -> throw new IllegalStateException("not a range operator: " + op);
    };
  }

  /** {presence test, seconds expression, nanos expression} of a time field. */
  private static String[] timeColumns(BuiltInField b) {
    return switch (b) {
      case CREATED_AT -> new String[] {"m.created_s IS NOT NULL", "m.created_s", "m.created_ns"};
      case UPDATED_AT -> new String[] {"m.updated_s IS NOT NULL", "m.updated_s", "m.updated_ns"};
      case EVENT_TIME -> new String[] {"m.event_s IS NOT NULL", "m.event_s", "m.event_ns"};
      case EXPIRATION_DATE -> new String[] {"m.expiration_day IS NOT NULL", "m.expiration_day * 86400", "0"};
      default -> throw new IllegalStateException(b + " is not a time field");
    };
  }

  private static String stringColumn(BuiltInField b) {
    return switch (b) {
      case USER_ID -> "m.user_id";
      case AGENT_ID -> "m.agent_id";
      case RUN_ID -> "m.run_id";
      case ACTOR_ID -> "m.actor_id";
      case ROLE -> "m.role";
      case HASH -> "m.hash";
      case MEMORY -> "m.text";
      default -> throw new IllegalStateException(b + " is not a string field");
    };
  }
}
