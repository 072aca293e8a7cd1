package dev.engram.spi.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A piece of SQL text with its parameters, built together so that every user value is bound, never
 * concatenated. Not thread-safe; build one per query. {@link #toString()} shows the text and the
 * number of parameters, never their values.
 */
public final class Sql {
  /**
   * A parameter that binds itself, for values of a type only one database knows (a PostgreSQL
   * array, say).
   */
  @FunctionalInterface
  public interface Parameter {
    /** Binds this value at JDBC parameter {@code index} of {@code ps}. */
    void bind(PreparedStatement ps, int index) throws SQLException;
  }

  private final StringBuilder text = new StringBuilder(256);
  private final List<Object> params = new ArrayList<>();

  /** Appends SQL text, which must hold no user value. */
  public Sql append(String sqlText) {
    text.append(sqlText);
    return this;
  }

  /** Appends another piece with its parameters. */
  public Sql append(Sql other) {
    text.append(other.text);
    params.addAll(other.params);
    return this;
  }

  /**
   * Appends a {@code ?} placeholder bound to {@code value}: a String, Long, Integer, Double,
   * byte[], {@link Parameter}, or null for SQL NULL.
   */
  public Sql param(Object value) {
    text.append('?');
    params.add(value);
    return this;
  }

  /** The SQL text, with a {@code ?} for each parameter. */
  public String text() {
    return text.toString();
  }

  /**
   * Binds this piece's parameters starting at JDBC index {@code first}; returns the next free
   * index.
   */
  public int bind(PreparedStatement ps, int first) throws SQLException {
    int i = first;
    for (Object p : params) {
      bindValue(ps, i++, p);
    }
    return i;
  }

  /** Binds one value by its Java type (the types {@link #param} takes). */
  private static void bindValue(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else if (value instanceof String s) {
      ps.setString(index, s);
    } else if (value instanceof Long l) {
      ps.setLong(index, l);
    } else if (value instanceof Integer n) {
      ps.setInt(index, n);
    } else if (value instanceof Double d) {
      ps.setDouble(index, d);
    } else if (value instanceof byte[] b) {
      ps.setBytes(index, b);
    } else if (value instanceof Parameter p) {
      p.bind(ps, index);
    } else {
      throw new IllegalArgumentException(
          "cannot bind a " + value.getClass().getName() + " at parameter " + index);
    }
  }

  @Override
  public String toString() {
    return text + " " + params.size() + " parameters";
  }
}
