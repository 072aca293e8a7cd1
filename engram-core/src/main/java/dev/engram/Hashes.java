package dev.engram;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Content hashes, as mem0 computes them. */
public final class Hashes {
  private Hashes() {}

  /** md5 of the UTF-8 bytes of {@code text}, as 32 lower-case hex characters. */
  public static String md5(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("MD5");
      return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks MD5", e);
    }
  }
}
