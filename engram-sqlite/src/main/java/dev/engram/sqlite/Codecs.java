package dev.engram.sqlite;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Embeddings as BLOBs of little-endian float32: the one value SQLite lays out its own way
 * (instants, metadata and string lists are laid out by {@link dev.engram.spi.sql.ColumnCodecs},
 * dates are epoch days).
 */
final class Codecs {
  private Codecs() {}

  /** A float vector as little-endian float32 bytes. */
  static byte[] embedding(float[] vector) {
    ByteBuffer buf =
        ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buf.asFloatBuffer().put(vector);
    return buf.array();
  }

  /** The inverse of {@link #embedding(float[])}. */
  static float[] embedding(byte[] bytes) {
    if (bytes.length % Float.BYTES != 0) {
      throw new IllegalStateException(
          "stored embedding has " + bytes.length + " bytes, not a multiple of 4");
    }
    float[] out = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return out;
  }
}
