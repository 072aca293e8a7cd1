package dev.engram;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link TokenCounter#cl100k()}: jtokkit's cl100k_base, with the counts of short texts remembered.
 * Tokenising costs about 12 µs for a 150-character chat turn, so the 100-200 memories a 1,500-token
 * search weighs would cost a millisecond or two each time; a memory's text is counted once. When
 * the remembered counts reach {@link #CACHED_TEXTS} they are all forgotten and counting starts
 * afresh, so they hold at most about 20 MB (a few MB for memories of one or two sentences).
 */
final class Cl100kTokenCounter implements TokenCounter {
  static final Cl100kTokenCounter INSTANCE = new Cl100kTokenCounter();

  /** Texts longer than this are counted every time. */
  static final int CACHED_LENGTH = 500;

  /** The most counts remembered at once. */
  static final int CACHED_TEXTS = 20_000;

  private final Map<String, Integer> counts = new ConcurrentHashMap<>();

  private Cl100kTokenCounter() {}

  @Override
  public int count(String text) {
    Objects.requireNonNull(text, "text");
    if (text.length() > CACHED_LENGTH) {
      return Encoder.CL100K.countTokensOrdinary(text);
    }
    Integer known = counts.get(text);
    if (known != null) {
      return known;
    }
    int n = Encoder.CL100K.countTokensOrdinary(text);
    if (counts.size() >= CACHED_TEXTS) {
      counts.clear();
    }
    counts.put(text, n);
    return n;
  }

  /** How many counts are remembered now. */
  int remembered() {
    return counts.size();
  }

  @Override
  public String toString() {
    return "cl100k";
  }

  /** Loads the encoding on first use. */
  private static final class Encoder {
    static final Encoding CL100K =
        Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
  }
}
