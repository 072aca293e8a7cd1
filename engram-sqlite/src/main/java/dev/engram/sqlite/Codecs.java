package dev.engram.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How values are laid out in columns. Instants take two INTEGER columns, epoch second and nano of second, so
 * they round-trip exactly and compare as row values {@code (s, ns)}; dates are epoch days; metadata and lists are
 * JSON text (Jackson); embeddings are BLOBs of little-endian float32.
 */
final class Codecs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectReader MAP = JSON.readerFor(new TypeReference<Map<String, Object>>() {});
  private static final ObjectReader STRINGS = JSON.readerFor(new TypeReference<List<String>>() {});

  private Codecs() {}

  /** Binds an instant (or null) to two consecutive parameters; returns the next free index. */
  static int bindInstant(PreparedStatement ps, int index, Instant t) throws SQLException {
    if (t == null) {
      ps.setNull(index, Types.INTEGER);
      ps.setNull(index + 1, Types.INTEGER);
    } else {
      ps.setLong(index, t.getEpochSecond());
      ps.setInt(index + 1, t.getNano());
    }
    return index + 2;
  }

  /** Reads an instant from two consecutive columns, or null if the seconds column is NULL. */
  static Instant instant(ResultSet rs, int column) throws SQLException {
    long seconds = rs.getLong(column);
    if (rs.wasNull()) {
      return null;
    }
    return Instant.ofEpochSecond(seconds, rs.getInt(column + 1));
  }

  static String metadataJson(Map<String, Object> metadata) {
    return write(metadata, "metadata");
  }

  static Map<String, Object> metadata(String json) {
    if ("{}".equals(json)) {
      return Map.of();
    }
    try {
      return MAP.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored metadata is not a JSON object: " + e.getOriginalMessage(), e);
    }
  }

  static String stringsJson(Collection<String> values) {
    return write(values, "string list");
  }

  static List<String> strings(String json) {
    if ("[]".equals(json)) {
      return List.of();
    }
    try {
      return STRINGS.readValue(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored list is not a JSON array of strings: " + e.getOriginalMessage(), e);
    }
  }

  private static String write(Object value, String what) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + what + " as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** A float vector as little-endian float32 bytes. */
  static byte[] embedding(float[] vector) {
    ByteBuffer buf = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buf.asFloatBuffer().put(vector);
    return buf.array();
  }

  /** The inverse of {@link #embedding(float[])}. */
  static float[] embedding(byte[] bytes) {
    if (bytes.length % Float.BYTES != 0) {
      throw new IllegalStateException("stored embedding has " + bytes.length + " bytes, not a multiple of 4");
    }
    float[] out = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return out;
  }
}
