package dev.engram.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The form of API keys: {@code eng_<id>_<secret>}, where the id (12 hex digits) finds the stored
 * row and the secret is 24 random bytes in URL-safe Base64; the whole key is hashed with SHA-256
 * for storage and the hashes are compared with {@link MessageDigest#isEqual} (constant time).
 */
public final class KeySecrets {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern FORM = Pattern.compile("eng_([0-9a-f]{12})_[A-Za-z0-9_-]{32}");

  /**
   * One digest per thread: finding SHA-256 among the security providers per request costs more than
   * hashing.
   */
  private static final ThreadLocal<MessageDigest> SHA_256 =
      ThreadLocal.withInitial(KeySecrets::sha256);

  private KeySecrets() {}

  /** A fresh key id. */
  public static String newId() {
    byte[] b = new byte[6];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** A fresh key for an id. */
  public static String newKey(String id) {
    byte[] b = new byte[24];
    RANDOM.nextBytes(b);
    return "eng_" + id + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The id inside a well-formed key, or empty. */
  public static Optional<String> idOf(String key) {
    if (key == null || key.length() != 49) {
      return Optional.empty();
    }
    var m = FORM.matcher(key);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The stored hash of a key. */
  public static byte[] hash(String key) {
    // digest() resets the digest, so the thread's next hash starts clean.
    return SHA_256.get().digest(key.getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Compares a presented key with a stored hash in constant time. */
  public static boolean matches(String presented, byte[] storedHash) {
    return MessageDigest.isEqual(hash(presented), storedHash);
  }

  /** The displayable start of a key (its id part). */
  public static String prefix(String key) {
    return key.substring(0, 16);
  }
}
