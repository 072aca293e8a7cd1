package dev.engram.spi.sql;

import java.util.function.Consumer;

/**
 * The fragments of SQL in which the databases {@link FilterSql} writes for differ. Each method
 * returns (or writes) one small expression; the structure of every condition is {@link
 * FilterSql}'s. A JSON row is the alias of a row of {@code json_each} or of a JSON array's
 * elements, whose JSON value is in its column {@code value}.
 */
public interface SqlDialect {
  /** The kinds of JSON value a filter compares with. */
  enum JsonKind {
    /** A JSON string. */
    STRING,
    /** A JSON number, integer or not. */
    NUMBER,
    /** A JSON array. */
    ARRAY,
    /** JSON {@code null}. */
    NULL
  }

  /**
   * The literal of a condition that is always {@code value} (SQLite {@code 1}/{@code 0}, SQL {@code
   * true}).
   */
  String literal(boolean value);

  /**
   * Writes a condition that is {@code condition} where {@code test} holds and false elsewhere,
   * never NULL; the condition is evaluated only where the test holds when the database might
   * otherwise fail on it (a cast of a value of another kind).
   */
  void when(Sql sql, String test, Consumer<Sql> condition);

  /**
   * The expression of the JSON type of the value in {@code row}, to pass to {@link #jsonTypeIs}.
   */
  String jsonType(String row);

  /** The test that {@code type} (from {@link #jsonType}) is of kind {@code kind}. */
  String jsonTypeIs(String type, JsonKind kind);

  /** The SQL text of the JSON scalar in {@code row}: a string itself, a number's digits. */
  String jsonText(String row);

  /** The test that the JSON value in {@code row} is the boolean {@code value}. */
  String jsonBoolean(String row, boolean value);

  /** The table function of the (key, value) rows of the JSON object {@code json}. */
  String jsonEntries(String json);

  /** The table function of the elements (as JSON values) of the JSON array {@code json}. */
  String jsonElements(String json);

  /**
   * A FROM item named {@code alias} whose text column {@code alias.value} holds each string of
   * array {@code json}.
   */
  String textElements(String json, String alias);

  /**
   * The expression holding the values of field {@code field} (its wire name: {@code metadata},
   * {@code source_id}, {@code user_id}, ...) as compared by {@code icontains}: a lower-cased copy
   * the store keeps, or {@code expression} itself where {@link #lowerCase} lowers at comparison.
   * {@code json} says whether {@code expression} is JSON (an object or array) or text.
   */
  String foldedSource(String field, String expression, boolean json);

  /**
   * {@code text} lower-cased as {@code String.toLowerCase(Locale.ROOT)} does, unless already folded
   * at the source.
   */
  String lowerCase(String text);

  /**
   * The name of the function that gives the 1-based position of a substring, 0 when absent:
   * (haystack, needle).
   */
  String positionFunction();

  /** {@code text} as a double-precision number (only applied to text that holds a JSON number). */
  String number(String text);

  /**
   * Writes {@code text comparator ?}, with {@code value} bound, comparing strings in Java's order
   * ({@link String#compareTo}, UTF-16 code units).
   */
  void javaOrderComparison(Sql sql, String text, String comparator, String value);

  /**
   * What follows a parameter or expression to make it a 64-bit integer (empty where no cast is
   * needed).
   */
  String bigintCast();

  /**
   * What follows a parameter or expression to make it a 32-bit integer (empty where no cast is
   * needed).
   */
  String integerCast();
}
