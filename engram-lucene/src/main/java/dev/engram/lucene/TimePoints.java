package dev.engram.lucene;

import java.time.Instant;

/**
 * Instants as 12-byte points: the epoch second as a sign-flipped big-endian long, then the
 * nanosecond of the second as a big-endian int. Unsigned byte order equals {@link
 * Instant#compareTo} order at full nanosecond precision, which epoch milliseconds (what a {@code
 * LongPoint} would hold) could not give: stored times carry microseconds.
 */
final class TimePoints {
  /** Bytes per encoded instant. */
  static final int BYTES = 12;

  /** The lowest encodable value: every instant is at or above it. */
  static final byte[] MIN = encode(Instant.MIN);

  /** The highest encodable value. */
  static final byte[] MAX = encode(Instant.MAX);

  private TimePoints() {}

  static byte[] encode(Instant t) {
    byte[] out = new byte[BYTES];
    long s = t.getEpochSecond() ^ Long.MIN_VALUE;
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (s >>> (56 - 8 * i));
    }
    int n = t.getNano();
    out[8] = (byte) (n >>> 24);
    out[9] = (byte) (n >>> 16);
    out[10] = (byte) (n >>> 8);
    out[11] = (byte) n;
    return out;
  }

  /**
   * The encoding of the instant one nanosecond later, or null if {@code t} is {@link Instant#MAX}.
   */
  static byte[] after(Instant t) {
    return t.equals(Instant.MAX) ? null : encode(t.plusNanos(1));
  }

  /**
   * The encoding of the instant one nanosecond earlier, or null if {@code t} is {@link
   * Instant#MIN}.
   */
  static byte[] before(Instant t) {
    return t.equals(Instant.MIN) ? null : encode(t.minusNanos(1));
  }
}
