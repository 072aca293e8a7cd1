package dev.engram.spi.sql;

import dev.engram.filter.BuiltInField;
import dev.engram.filter.Field;
import dev.engram.filter.Filter;
import dev.engram.filter.Op;
import dev.engram.spi.sql.SqlDialect.JsonKind;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Translates a {@link Filter} into a SQL condition on the {@code memories} table (alias {@code m})
 * that agrees exactly with {@link dev.engram.filter.FilterEvaluator} (the contract kit's random
 * filters test every backend against it). Every condition is true or false, never NULL, so NOT, AND
 * and OR behave as in two-valued logic; {@code ne} and {@code nin} are {@code NOT} of {@code eq}
 * and {@code in}, so a missing field passes them. What differs between databases comes from the
 * {@link SqlDialect}.
 *
 * <ul>
 *   <li>Metadata: the object's entries with a bound key (so any character is safe); an array value
 *       matches if any element does; an object or null value matches nothing. JSON types keep kinds
 *       apart: strings compare only with strings, numbers (as doubles) only with numbers, booleans
 *       only with booleans.
 *   <li>Strings (the id, role, hash and text columns and source ids): equality is exact; {@code
 *       contains} is a substring test; {@code icontains} a substring test of the Unicode lower
 *       case; ranges compare in Java's UTF-16 order.
 *   <li>Times: instants compare as (epoch second, nano) row values; an expiration date as the start
 *       of its day (UTC).
 * </ul>
 *
 * <p>The columns it reads: {@code user_id, agent_id, run_id, actor_id, role, hash, text} (text,
 * nullable), {@code metadata} (a JSON object), {@code source_ids} (a JSON array of strings), {@code
 * created_s/_ns}, {@code updated_s/_ns}, {@code event_s/_ns} (epoch second and nano, nullable) and
 * {@code expiration_day} (epoch day, nullable). One known difference: SQL databases treat {@code
 * -0.0} and {@code 0.0} as equal numbers, where {@link Double#compare} orders {@code -0.0} below
 * {@code 0.0}.
 */
public final class FilterSql {
  private final SqlDialect dialect;

  /**
   * A value to compare: its SQL text and, for a JSON value, the alias of its JSON row and its JSON
   * type expression (both null for a text column).
   */
  private record Value(String row, String type, String text) {
    static Value column(String text) {
      return new Value(null, null, text);
    }
  }

  /** A translator that writes {@code dialect}'s SQL. */
  public FilterSql(SqlDialect dialect) {
    this.dialect = Objects.requireNonNull(dialect, "dialect");
  }

  /** The condition of {@code filter}. */
  public Sql of(Filter filter) {
    Sql sql = new Sql();
    append(sql, filter);
    return sql;
  }

  /** Appends the condition of {@code filter} to {@code sql}. */
  public void append(Sql sql, Filter filter) {
    if (filter instanceof Filter.All) {
      sql.append(dialect.literal(true));
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

  private void join(Sql sql, List<Filter> parts, String operator) {
    sql.append("(");
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        sql.append(operator);
      }
      append(sql, parts.get(i));
    }
    sql.append(")");
  }

  private void negated(Sql sql, Field field, Op op, Object value) {
    sql.append("(NOT ");
    match(sql, field, op, value);
    sql.append(")");
  }

  private void exists(Sql sql, Field field) {
    BuiltInField b = field.builtIn();
    if (b == null) {
      sql.append("EXISTS (SELECT 1 FROM " + dialect.jsonEntries("m.metadata") + " k WHERE k.key = ")
          .param(field.name())
          .append(" AND NOT (" + dialect.jsonTypeIs(dialect.jsonType("k"), JsonKind.NULL) + "))");
    } else if (b == BuiltInField.SOURCE_ID) {
      sql.append("(json_array_length(m.source_ids) > 0)");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      sql.append("(").append(timeColumns(b)[0]).append(" IS NOT NULL)");
    } else {
      sql.append("(").append(stringColumn(b)).append(" IS NOT NULL)");
    }
  }

  /**
   * The positive match of {@code field op value}: true if the field's value (or any list element)
   * satisfies it.
   */
  private void match(Sql sql, Field field, Op op, Object value) {
    BuiltInField b = field.builtIn();
    boolean folded = op == Op.ICONTAINS;
    if (b == null) {
      String object = folded ? dialect.foldedSource("metadata", "m.metadata", true) : "m.metadata";
      String type = dialect.jsonType("k");
      sql.append("EXISTS (SELECT 1 FROM " + dialect.jsonEntries(object) + " k WHERE k.key = ")
          .param(field.name())
          .append(
              " AND CASE WHEN "
                  + dialect.jsonTypeIs(type, JsonKind.ARRAY)
                  + " THEN EXISTS (SELECT 1 FROM "
                  + dialect.jsonElements("k.value")
                  + " e WHERE ");
      scalar(sql, json("e"), op, value);
      sql.append(") ELSE ");
      scalar(sql, json("k"), op, value);
      sql.append(" END)");
    } else if (b == BuiltInField.SOURCE_ID) {
      String list =
          folded ? dialect.foldedSource(b.wireName(), "m.source_ids", true) : "m.source_ids";
      sql.append("EXISTS (SELECT 1 FROM " + dialect.textElements(list, "s") + " WHERE ");
      scalar(sql, Value.column("s.value"), op, value);
      sql.append(")");
    } else if (b.kind() == BuiltInField.Kind.TIME) {
      time(sql, timeColumns(b), op, value);
    } else {
      String column = stringColumn(b);
      String compared = folded ? dialect.foldedSource(b.wireName(), column, false) : column;
      dialect.when(sql, column + " IS NOT NULL", s -> scalar(s, Value.column(compared), op, value));
    }
  }

  private Value json(String row) {
    return new Value(row, dialect.jsonType(row), dialect.jsonText(row));
  }

  /** A comparison of one scalar value (never NULL inside its kind test) with {@code expected}. */
  private void scalar(Sql sql, Value v, Op op, Object expected) {
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
          sql.append(dialect.literal(false));
        }
        sql.append(")");
      }
      case CONTAINS ->
          kind(
              sql,
              v,
              JsonKind.STRING,
              s ->
                  s.append(dialect.positionFunction() + "(" + v.text() + ", ")
                      .param(expected)
                      .append(") > 0"));
      case ICONTAINS ->
          kind(
              sql,
              v,
              JsonKind.STRING,
              s ->
                  s.append(dialect.positionFunction() + "(" + dialect.lowerCase(v.text()) + ", ")
                      .param(((String) expected).toLowerCase(Locale.ROOT))
                      .append(") > 0"));
      case GT, GTE, LT, LTE -> range(sql, v, comparator(op), expected);
      default -> throw new IllegalStateException("unexpected operator " + op);
    }
  }

  private void same(Sql sql, Value v, Object expected) {
    if (expected instanceof String s) {
      kind(sql, v, JsonKind.STRING, c -> c.append(v.text() + " = ").param(s));
    } else if (expected instanceof Double d) {
      kind(sql, v, JsonKind.NUMBER, c -> c.append(dialect.number(v.text()) + " = ").param(d));
    } else if (expected instanceof Boolean bool && v.type() != null) {
      sql.append("(").append(dialect.jsonBoolean(v.row(), bool)).append(")");
    } else {
      sql.append(dialect.literal(false));
    }
  }

  private void range(Sql sql, Value v, String comparator, Object expected) {
    if (expected instanceof String s) {
      kind(sql, v, JsonKind.STRING, c -> dialect.javaOrderComparison(c, v.text(), comparator, s));
    } else if (expected instanceof Double d) {
      kind(sql, v, JsonKind.NUMBER, c -> c.append(dialect.number(v.text()) + comparator).param(d));
    } else {
      sql.append(dialect.literal(false));
    }
  }

  /**
   * {@code condition} if the value is of JSON kind {@code kind}, else false; a text column holds
   * strings only, so there it is the condition for a string and false for any other kind.
   */
  private void kind(Sql sql, Value v, JsonKind kind, Consumer<Sql> condition) {
    if (v.type() != null) {
      dialect.when(sql, dialect.jsonTypeIs(v.type(), kind), condition);
    } else if (kind == JsonKind.STRING) {
      sql.append("(");
      condition.accept(sql);
      sql.append(")");
    } else {
      sql.append(dialect.literal(false));
    }
  }

  private void time(Sql sql, String[] columns, Op op, Object value) {
    String seconds = columns[1];
    String nanos = columns[2];
    dialect.when(
        sql,
        columns[0] + " IS NOT NULL",
        s -> {
          switch (op) {
            case EQ -> sameInstant(s, seconds, nanos, (Instant) value);
            case IN -> {
              s.append("(");
              List<?> values = (List<?>) value;
              for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                  s.append(" OR ");
                }
                sameInstant(s, seconds, nanos, (Instant) values.get(i));
              }
              if (values.isEmpty()) {
                s.append(dialect.literal(false));
              }
              s.append(")");
            }
            case GT, GTE, LT, LTE -> {
              Instant t = (Instant) value;
              s.append("(")
                  .append(seconds)
                  .append(", ")
                  .append(nanos)
                  .append(")")
                  .append(comparator(op))
                  .append("(")
                  .param(t.getEpochSecond())
                  .append(dialect.bigintCast() + ", ")
                  .param(t.getNano())
                  .append(dialect.integerCast() + ")");
            }
            default -> throw new IllegalStateException(op + " does not apply to a time field");
          }
        });
  }

  private void sameInstant(Sql sql, String seconds, String nanos, Instant t) {
    sql.append("(")
        .append(seconds)
        .append(" = ")
        .param(t.getEpochSecond())
        .append(dialect.bigintCast() + " AND ")
        .append(nanos)
        .append(" = ")
        .param(t.getNano())
        .append(dialect.integerCast() + ")");
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
  private String[] timeColumns(BuiltInField b) {
    return switch (b) {
      case CREATED_AT -> new String[] {"m.created_s", "m.created_s", "m.created_ns"};
      case UPDATED_AT -> new String[] {"m.updated_s", "m.updated_s", "m.updated_ns"};
      case EVENT_TIME -> new String[] {"m.event_s", "m.event_s", "m.event_ns"};
      case EXPIRATION_DATE ->
          new String[] {
            "m.expiration_day", "m.expiration_day" + dialect.bigintCast() + " * 86400", "0"
          };
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
