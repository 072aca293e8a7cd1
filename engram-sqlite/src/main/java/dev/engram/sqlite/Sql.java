package dev.engram.sqlite;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A piece of SQL text with its parameters, built together so that every user value is bound, never concatenated.
 * Not thread-safe; build one per query.
 */
final class Sql {
  private final StringBuilder text = new StringBuilder(256);
  private final List<Object> params = new ArrayList<>();

  Sql append(String sqlText) {
    text.append(sqlText);
    return this;
  }

  /** Appends a {@code ?} placeholder bound to {@code value} (String, Long, Integer, Double or null). */
  Sql param(Object value) {
    text.append('?');
    params.add(value);
    return this;
  }

  String text() {
    return text.toString();
  }

  List<Object> params() {
    return List.copyOf(params);
  }

  /** Binds this piece's parameters starting at JDBC index {@code first}; returns the next free index. */
  int bind(PreparedStatement ps, int first) throws SQLException {
    int i = first;
    for (Object p : params) {
      bindValue(ps, i++, p);
    }
    return i;
  }

  /** Binds one value by its Java type. */
  static void bindValue(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.NULL);
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
    } else {
      throw new IllegalArgumentException("cannot bind a " + value.getClass().getName() + " at parameter " + index);
    }
  }

  @Override
  public String toString() {
    return text + " " + params;
  }
}
