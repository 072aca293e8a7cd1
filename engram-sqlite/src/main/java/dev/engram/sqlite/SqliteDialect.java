package dev.engram.sqlite;

import dev.engram.spi.sql.Sql;
import dev.engram.spi.sql.SqlDialect;
import java.util.function.Consumer;

/**
 * SQLite's fragments of the shared filter translation ({@link dev.engram.spi.sql.FilterSql}): JSON
 * through {@code json_each}, whose {@code type} column names the kind ({@code text}, {@code
 * integer}, {@code real}, {@code true}, {@code false}, {@code array}, {@code null}); conditions are
 * 0 or 1; {@code icontains} lowers with the Java function {@value SqlFunctions#LOWER} and string
 * ranges use the collation {@value SqlFunctions#UTF16} (see {@link SqlFunctions}); integers need no
 * casts.
 */
final class SqliteDialect implements SqlDialect {
  @Override
  public String literal(boolean value) {
    return value ? "1" : "0";
  }

  @Override
  public void when(Sql sql, String test, Consumer<Sql> condition) {
    sql.append("(" + test + " AND ");
    condition.accept(sql);
    sql.append(")");
  }

  @Override
  public String jsonType(String row) {
    return row + ".type";
  }

  @Override
  public String jsonTypeIs(String type, JsonKind kind) {
    return switch (kind) {
      case STRING -> type + " = 'text'";
      case NUMBER -> type + " IN ('integer', 'real')";
      case ARRAY -> type + " = 'array'";
      case NULL -> type + " = 'null'";
    };
  }

  @Override
  public String jsonText(String row) {
    return row + ".value";
  }

  @Override
  public String jsonBoolean(String row, boolean value) {
    return row + (value ? ".type = 'true'" : ".type = 'false'");
  }

  @Override
  public String jsonEntries(String json) {
    return "json_each(" + json + ")";
  }

  @Override
  public String jsonElements(String json) {
    return "json_each(" + json + ")";
  }

  @Override
  public String textElements(String json, String alias) {
    return "json_each(" + json + ") " + alias;
  }

  /** SQLite keeps no folded copy: {@link #lowerCase} lowers at comparison. */
  @Override
  public String foldedSource(String field, String expression, boolean json) {
    return expression;
  }

  @Override
  public String lowerCase(String text) {
    return SqlFunctions.LOWER + "(" + text + ")";
  }

  @Override
  public String positionFunction() {
    return "instr";
  }

  @Override
  public String number(String text) {
    return "CAST(" + text + " AS REAL)";
  }

  @Override
  public void javaOrderComparison(Sql sql, String text, String comparator, String value) {
    sql.append(text + " COLLATE " + SqlFunctions.UTF16 + comparator).param(value);
  }

  @Override
  public String bigintCast() {
    return "";
  }

  @Override
  public String integerCast() {
    return "";
  }
}
