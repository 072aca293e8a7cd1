package dev.engram.bench.scale;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generates synthetic long-term memories for scale runs: natural-language facts about a user of
 * {@value #MIN_WORDS} to {@value #MAX_WORDS} words, built from fact templates and word lists (see
 * {@link WordLists}), each with metadata (a category, an importance from 1 to 5, and {@code
 * "source": "synthetic"}) and an event time in 2022-2024; and short search queries drawn from the
 * same vocabulary.
 *
 * <p>Deterministic: the same seed gives the same sequence of facts and queries, on every JVM.
 *
 * <p><b>Threading.</b> Not thread-safe (it owns a {@link Random}).
 */
public final class SyntheticMemories {
  /** The fewest words in a generated fact. */
  public static final int MIN_WORDS = 10;

  /** The most words in a generated fact. */
  public static final int MAX_WORDS = 40;

  private static final Pattern SLOT = Pattern.compile("\\{([a-z]+)}");
  private static final Instant EPOCH = Instant.parse("2022-01-01T00:00:00Z");
  private static final long SPAN_SECONDS = 3L * 365 * 24 * 3600;
  private static final int TAIL_ATTEMPTS = 8;

  /**
   * One generated memory.
   *
   * @param text the fact, one sentence
   * @param metadata {@code category} (string), {@code importance} (1 to 5) and {@code source}
   *     ("synthetic")
   * @param eventTime when the fact was said
   */
  public record Fact(String text, Map<String, Object> metadata, Instant eventTime) {
    public Fact {
      Objects.requireNonNull(text, "text");
      metadata = Map.copyOf(metadata);
      Objects.requireNonNull(eventTime, "eventTime");
    }
  }

  private final Random random;

  /** A generator whose output is fixed by {@code seed}. */
  public SyntheticMemories(long seed) {
    this.random = new Random(seed);
  }

  /** The next fact. */
  public Fact next() {
    WordLists.Template template = pick(WordLists.FACTS);
    int target = MIN_WORDS + random.nextInt(MAX_WORDS - MIN_WORDS + 1);
    StringBuilder text = new StringBuilder(fill(template.text()));
    int words = countWords(text);
    for (int attempt = 0; attempt < TAIL_ATTEMPTS && words < target; attempt++) {
      String tail = fill(pick(WordLists.TAILS));
      int tailWords = countWords(tail);
      if (words + tailWords <= target) {
        text.append(' ').append(tail);
        words += tailWords;
      }
    }
    text.setCharAt(0, Character.toUpperCase(text.charAt(0)));
    text.append('.');
    Map<String, Object> metadata =
        Map.of(
            "category",
            template.category(),
            "importance",
            1 + random.nextInt(5),
            "source",
            "synthetic");
    Instant eventTime = EPOCH.plusSeconds((long) (random.nextDouble() * SPAN_SECONDS));
    return new Fact(text.toString(), metadata, eventTime);
  }

  /**
   * The next search query: a short question or phrase of 3 to 12 words over the facts' vocabulary.
   */
  public String query() {
    String q = fill(pick(WordLists.QUERIES));
    return Character.toUpperCase(q.charAt(0)) + q.substring(1);
  }

  /** The number of words (maximal runs of non-space characters) in {@code text}. */
  public static int countWords(CharSequence text) {
    int count = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      boolean space = Character.isWhitespace(text.charAt(i));
      if (!space && !inWord) {
        count++;
      }
      inWord = !space;
    }
    return count;
  }

  private String fill(String template) {
    Matcher m = SLOT.matcher(template);
    StringBuilder out = new StringBuilder(template.length() + 32);
    while (m.find()) {
      List<String> words = WordLists.SLOTS.get(m.group(1));
      if (words == null) {
        throw new IllegalStateException(
            "template slot {" + m.group(1) + "} has no word list: " + template);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(pick(words)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private <T> T pick(List<T> items) {
    return items.get(random.nextInt(items.size()));
  }
}
