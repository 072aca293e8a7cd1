package dev.engram.postgres;

import dev.engram.filter.BuiltInField;
import dev.engram.filter.Field;
import dev.engram.filter.Filter;
import dev.engram.filter.Op;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Translates a {@link Filter} into a PostgreSQL condition on the {@code memories} table (alias {@code m}) that agrees
 * exactly with {@link dev.engram.filter.FilterEvaluator} (tested with the contract kit's random filters). Every
 * condition is true or false, never NULL (type tests go through {@code CASE}, which also keeps casts from seeing
 * values of another kind), so NOT, AND and OR behave as in two-valued logic; {@code ne} and {@code nin} are
 * {@code NOT} of {@code eq} and {@code in}, so a missing field passes them.
 *
 * <ul>
 *   <li>Metadata: {@code json_each(m.metadata)} with a bound key; an array matches if any element does; an object or
 *       null matches nothing; {@code json_typeof} keeps kinds apart (strings with strings, numbers compared as
 *       {@code float8} with numbers, booleans with booleans).
 *   <li>Strings: equality is exact; {@code contains} is {@code strpos}; {@code icontains} reads the Java-lowered
 *       copy in {@code m.folded}; ranges compare {@code engram_utf16_key}, Java's UTF-16 order.
 *   <li>Times: (epoch second, nano) row values; an expiration date as the start of its day (UTC).
 * </ul>
 *
 * <p>One known difference, as in SQLite: {@code -0.0} and {@code 0.0} are equal numbers here.
 */
final class FilterSql {
  private FilterSql() {}

  /** A value to compare: its SQL text expression and, for JSON values, the SQL expression of its JSON type. */
  private record Value(String type, String text) {
    static Value json(String expr) {
      return new Value("json_typeof(" + expr + ")", "(" + expr + " #>> '{}')");
    }

    static Value column(String expr) {
      return new Value(null, expr);
    }
  }

  /** The condition of {@code filter}. */
  static Sql of(Filter filter) {
    Sql sql = new Sql();
    append(sql, filter);
    return sql;
  }

  private static void append(Sql sql, Filter filter) {
    if (filter instanceof Filter.All) {
      sql.append("true");
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
          .append(" AND json_typeof(k.value) <> 'null')");
    } else if (b == BuiltInField.SOURCE_ID) {
      sql.append("(json_array_length(m.source_ids) > 0)");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      sql.append("(").append(timeColumns(b)[0]).append(" IS NOT NULL)");
    } else {
      sql.append("(").append(stringColumn(b)).append(" IS NOT NULL)");
    }
  }

  /** The positive match of {@code field op value}: true if the field's value (or any list element) satisfies it. */
  private static void match(Sql sql, Field field, Op op, Object value) {
    BuiltInField b = field.builtIn();
    boolean folded = op == Op.ICONTAINS;
    if (b == null) {
      String object = folded ? "(m.folded -> 'metadata')" : "m.metadata";
      sql.append("EXISTS (SELECT 1 FROM json_each(").append(object).append(") k WHERE k.key = ")
          .param(field.name())
          .append(" AND CASE WHEN json_typeof(k.value) = 'array' THEN EXISTS (SELECT 1 FROM"
              + " json_array_elements(k.value) e WHERE ");
      scalar(sql, Value.json("e.value"), op, value);
      sql.append(") ELSE ");
      scalar(sql, Value.json("k.value"), op, value);
      sql.append(" END)");
    } else if (b == BuiltInField.SOURCE_ID) {
      String list = folded ? "(m.folded -> 'source_id')" : "m.source_ids";
      sql.append("EXISTS (SELECT 1 FROM json_array_elements_text(").append(list).append(") s(v) WHERE ");
      scalar(sql, Value.column("s.v"), op, value);
      sql.append(")");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      time(sql, timeColumns(b), op, value);
    } else {
      String column = stringColumn(b);
      String compared = folded ? "(m.folded ->> '" + b.wireName() + "')" : column;
      sql.append("CASE WHEN ").append(column).append(" IS NULL THEN false ELSE ");
      scalar(sql, Value.column(compared), op, value);
      sql.append(" END");
    }
  }

  /** A comparison of one scalar value (never NULL inside its kind test) with {@code expected}. */
  private static void scalar(Sql sql, Value v, Op op, Object expected) {
    switch (op) {
      case EQ -> same(sql, v, expected);
      case IN -> {
        sql.append("(");
        List<?> values = (List<?>) expected;
        for (int i = 0; i < values.size(); i++) {
          if (i > 0) {
            sql.append(" OR ");
          }
          same(sql, v, values.get(i));
        }
        if (values.isEmpty()) {
          sql.append("false");
        }
        sql.append(")");
      }
      case CONTAINS -> kind(sql, v, "string", new Sql().append("strpos(" + v.text() + ", ").param(expected)
          .append(") > 0"));
      case ICONTAINS -> kind(sql, v, "string", new Sql().append("strpos(" + v.text() + ", ")
          .param(((String) expected).toLowerCase(Locale.ROOT)).append(") > 0"));
      case GT, GTE, LT, LTE -> range(sql, v, comparator(op), expected);
      default -> throw new IllegalStateException("unexpected operator " + op);
    }
  }

  private static void same(Sql sql, Value v, Object expected) {
    if (expected instanceof String s) {
      kind(sql, v, "string", new Sql().append(v.text() + " = ").param(s));
    } else if (expected instanceof Double d && v.type() != null) {
      kind(sql, v, "number", new Sql().append("(" + v.text() + ")::float8 = ").param(d));
    } else if (expected instanceof Boolean bool && v.type() != null) {
      kind(sql, v, "boolean", new Sql().append(v.text() + (bool ? " = 'true'" : " = 'false'")));
    } else {
      sql.append("false");
    }
  }

  private static void range(Sql sql, Value v, String comparator, Object expected) {
    if (expected instanceof String s) {
      kind(sql, v, "string", new Sql().append("engram_utf16_key(" + v.text() + ") COLLATE \"C\"" + comparator
          + "engram_utf16_key(").param(s).append(") COLLATE \"C\""));
    } else if (expected instanceof Double d && v.type() != null) {
      kind(sql, v, "number", new Sql().append("(" + v.text() + ")::float8" + comparator).param(d));
    } else {
      sql.append("false");
    }
  }

  /** {@code condition} if the value is of JSON type {@code type} (always, for a text column), else false. */
  private static void kind(Sql sql, Value v, String type, Sql condition) {
    if (v.type() == null) {
      if (!type.equals("string")) {
        sql.append("false");
        return;
      }
      sql.append("(").append(condition).append(")");
      return;
    }
    sql.append("CASE WHEN ").append(v.type()).append(" = '").append(type).append("' THEN ").append(condition)
        .append(" ELSE false END");
  }

  private static void time(Sql sql, String[] columns, Op op, Object value) {
    String seconds = columns[1];
    String nanos = columns[2];
    sql.append("CASE WHEN ").append(columns[0]).append(" IS NULL THEN false ELSE ");
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
        if (values.isEmpty()) {
          sql.append("false");
        }
        sql.append(")");
      }
      case GT, GTE, LT, LTE -> {
        Instant t = (Instant) value;
        sql.append("(").append(seconds).append(", ").append(nanos).append(")").append(comparator(op))
            .append("(").param(t.getEpochSecond()).append("::bigint, ").param(t.getNano()).append("::integer)");
      }
      default -> throw new IllegalStateException(op + " does not apply to a time field");
    }
    sql.append(" END");
  }

  private static void sameInstant(Sql sql, String seconds, String nanos, Instant t) {
    sql.append("(").append(seconds).append(" = ").param(t.getEpochSecond()).append("::bigint AND ").append(nanos)
        .append(" = ").param(t.getNano()).append("::integer)");
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

  /** {presence column, seconds expression, nanos expression} of a time field. */
  private static String[] timeColumns(BuiltInField b) {
    return switch (b) {
      case CREATED_AT -> new String[] {"m.created_s", "m.created_s", "m.created_ns"};
      case UPDATED_AT -> new String[] {"m.updated_s", "m.updated_s", "m.updated_ns"};
      case EVENT_TIME -> new String[] {"m.event_s", "m.event_s", "m.event_ns"};
      case EXPIRATION_DATE -> new String[] {"m.expiration_day", "m.expiration_day::bigint * 86400", "0"};
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
