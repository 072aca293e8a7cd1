package dev.engram.spi.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How the SQL backends lay out the values they share in columns: an instant takes two integer
 * columns, epoch second and nano of second, so that it round-trips exactly and compares as a row
 * value {@code (s, ns)}; metadata and string lists are JSON text exactly as Jackson writes them.
 * (Embeddings and dates are each database's own.)
 */
public final class ColumnCodecs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectReader MAP =
      JSON.readerFor(new TypeReference<Map<String, Object>>() {});
  private static final ObjectReader STRINGS = JSON.readerFor(new TypeReference<List<String>>() {});

  private ColumnCodecs() {}

  /**
   * Binds an instant (null binds two NULLs) to two consecutive parameters; returns the next free
   * index.
   */
  public static int bindInstant(PreparedStatement ps, int index, Instant t) throws SQLException {
    if (t == null) {
      ps.setNull(index, Types.BIGINT);
      ps.setNull(index + 1, Types.INTEGER);
    } else {
      ps.setLong(index, t.getEpochSecond());
      ps.setInt(index + 1, t.getNano());
    }
    return index + 2;
  }

  /** Reads an instant from two consecutive columns; null if the seconds column is NULL. */
  public static Instant instant(ResultSet rs, int column) throws SQLException {
    long seconds = rs.getLong(column);
    if (rs.wasNull()) {
      return null;
    }
    return Instant.ofEpochSecond(seconds, rs.getInt(column + 1));
  }

  /** {@code value} (metadata, a string list, ...) as JSON text. */
  public static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Reads stored metadata, a JSON object. */
  public static Map<String, Object> metadata(String json) {
    if ("{}".equals(json)) {
      return Map.of();
    }
    try {
      return MAP.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "stored metadata is not a JSON object: " + e.getOriginalMessage(), e);
    }
  }

  /** Reads a stored JSON array of strings. */
  public static List<String> strings(String json) {
    if ("[]".equals(json)) {
      return List.of();
    }
    try {
      return STRINGS.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "stored list is not a JSON array of strings: " + e.getOriginalMessage(), e);
    }
  }
}
