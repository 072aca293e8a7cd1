package dev.engram;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link TokenCounter#cl100k()}: jtokkit's cl100k_base, with the counts of texts remembered.
 * Tokenising costs about 12 µs for a 150-character chat turn and about 0.1 ms for a 256-token
 * passage of a long message, so the 100-200 memories a 1,500-token search weighs would cost one to
 * several milliseconds each time (on BEAM's long turns, half of a search's time); a memory's text
 * is counted once. Texts up to {@value #CACHED_LENGTH} characters are remembered (a passage of a
 * long message is at most {@link Engram.Builder#DEFAULT_PASSAGE_TOKENS} tokens, under 1,000
 * characters, but the offline extractor keeps a long run-on sentence of a message as one fact: on
 * the BEAM sample such facts reach 14,797 characters, about 1 ms to count, and a search of their
 * scope weighed them every time, 0.3 ms of a search on average); longer ones are counted every
 * time. When the remembered counts reach {@link #CACHED_TEXTS} texts or {@link #CACHED_CHARACTERS}
 * characters they are all forgotten and counting starts afresh, so they hold at most about 20 MB.
 */
final class Cl100kTokenCounter implements TokenCounter {
  static final Cl100kTokenCounter INSTANCE = new Cl100kTokenCounter();

  /** Texts longer than this are counted every time. */
  static final int CACHED_LENGTH = 32_000;

  /** The most counts remembered at once. */
  static final int CACHED_TEXTS = 20_000;

  /** The most characters of remembered texts held at once. */
  static final long CACHED_CHARACTERS = 8_000_000;

  private final Map<String, Integer> counts = new ConcurrentHashMap<>();

  /** The characters of the texts in {@link #counts} (about: concurrent clears may miss some). */
  private final AtomicLong characters = new AtomicLong();

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
    if (counts.size() >= CACHED_TEXTS || characters.get() + text.length() > CACHED_CHARACTERS) {
      counts.clear();
      characters.set(0);
    }
    if (counts.putIfAbsent(text, n) == null) {
      characters.addAndGet(text.length());
    }
    return n;
  }

  /** How many counts are remembered now. */
  int remembered() {
    return counts.size();
  }

  /** How many characters of remembered texts are held now. */
  long rememberedCharacters() {
    return characters.get();
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
