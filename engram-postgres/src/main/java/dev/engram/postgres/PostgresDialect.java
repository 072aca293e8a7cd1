package dev.engram.postgres;

import dev.engram.spi.sql.Sql;
import dev.engram.spi.sql.SqlDialect;
import java.util.function.Consumer;

/**
 * PostgreSQL's fragments of the shared filter translation ({@link dev.engram.spi.sql.FilterSql}):
 * JSON through {@code json_each}, {@code json_array_elements} and {@code json_typeof}; type tests
 * go through {@code CASE}, which keeps casts from seeing values of another kind (PostgreSQL does
 * not promise to evaluate AND left to right); {@code icontains} reads the Java-lowered copy of
 * every string in {@code m.folded} (written by {@link MemoryRows}); string ranges compare {@code
 * engram_utf16_key} (Java's UTF-16 order, migration V1) under {@code COLLATE "C"}; bound integers
 * are cast to the columns' types.
 */
final class PostgresDialect implements SqlDialect {
  @Override
  public String literal(boolean value) {
    return value ? "true" : "false";
  }

  @Override
  public void when(Sql sql, String test, Consumer<Sql> condition) {
    sql.append("CASE WHEN " + test + " THEN ");
    condition.accept(sql);
    sql.append(" ELSE false END");
  }

  @Override
  public String jsonType(String row) {
    return "json_typeof(" + row + ".value)";
  }

  @Override
  public String jsonTypeIs(String type, JsonKind kind) {
    return switch (kind) {
      case STRING -> type + " = 'string'";
      case NUMBER -> type + " = 'number'";
      case ARRAY -> type + " = 'array'";
      case NULL -> type + " = 'null'";
    };
  }

  @Override
  public String jsonText(String row) {
    return "(" + row + ".value #>> '{}')";
  }

  @Override
  public String jsonBoolean(String row, boolean value) {
    return "CASE WHEN json_typeof("
        + row
        + ".value) = 'boolean' THEN ("
        + row
        + ".value #>> '{}') = '"
        + value
        + "' ELSE false END";
  }

  @Override
  public String jsonEntries(String json) {
    return "json_each(" + json + ")";
  }

  @Override
  public String jsonElements(String json) {
    return "json_array_elements(" + json + ")";
  }

  @Override
  public String textElements(String json, String alias) {
    return "json_array_elements_text(" + json + ") " + alias + "(value)";
  }

  /** The field's lower-cased copy in {@code m.folded}, a JSON object keyed by wire name. */
  @Override
  public String foldedSource(String field, String expression, boolean json) {
    return "(m.folded " + (json ? "->" : "->>") + " '" + field + "')";
  }

  /** Already lowered: {@link #foldedSource} reads the folded copy. */
  @Override
  public String lowerCase(String text) {
    return text;
  }

  @Override
  public String positionFunction() {
    return "strpos";
  }

  @Override
  public String number(String text) {
    return "(" + text + ")::float8";
  }

  @Override
  public void javaOrderComparison(Sql sql, String text, String comparator, String value) {
    sql.append("engram_utf16_key(" + text + ") COLLATE \"C\"" + comparator + "engram_utf16_key(")
        .param(value)
        .append(") COLLATE \"C\"");
  }

  @Override
  public String bigintCast() {
    return "::bigint";
  }

  @Override
  public String integerCast() {
    return "::integer";
  }
}
