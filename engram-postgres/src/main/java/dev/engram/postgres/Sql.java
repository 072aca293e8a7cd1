package dev.engram.postgres;

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

  /** Appends a {@code ?} placeholder bound to {@code value} (String, Long, Integer, Double, float[] or null). */
  Sql param(Object value) {
    text.append('?');
    params.add(value);
    return this;
  }

  /** Appends another piece with its parameters. */
  Sql append(Sql other) {
    text.append(other.text);
    params.addAll(other.params);
    return this;
  }

  String text() {
    return text.toString();
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
      ps.setNull(index, Types.VARCHAR);
    } else if (value instanceof String s) {
      ps.setString(index, s);
    } else if (value instanceof Long l) {
      ps.setLong(index, l);
    } else if (value instanceof Integer n) {
      ps.setInt(index, n);
    } else if (value instanceof Double d) {
      ps.setDouble(index, d);
    } else if (value instanceof float[] v) {
      ps.setArray(index, ps.getConnection().createArrayOf("float4", boxed(v)));
    } else {
      throw new IllegalArgumentException("cannot bind a " + value.getClass().getName() + " at parameter " + index);
    }
  }

  static Float[] boxed(float[] v) {
    Float[] out = new Float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }

  @Override
  public String toString() {
    return text + " " + params.size() + " parameters";
  }
}
