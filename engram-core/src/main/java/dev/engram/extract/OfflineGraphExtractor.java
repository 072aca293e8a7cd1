package dev.engram.extract;

import dev.engram.spi.GraphExtractor;
import dev.engram.spi.UsageMeter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The graph extractor without a language model: entities are the speakers of the add's memories and
 * the capitalised word spans of each memory text (function words, pronouns, days, months and a
 * text-initial word that looks like a verb or adverb left out; another text-initial capitalised
 * word is taken as a name); each memory links the entities it names with {@code related_to}
 * relations whose fact is the memory text (or, if it names one entity only, a {@code mentioned_in}
 * self-relation), so entity-centred retrieval works offline. No contradiction logic: {@link #judge}
 * returns nothing, so relations are only ever added or merged as exact duplicates. Deterministic
 * and thread-safe.
 */
public final class OfflineGraphExtractor implements GraphExtractor {
  private static final Pattern SPAN =
      Pattern.compile(
          "\\b\\p{Lu}[\\p{L}\\p{N}&.-]*(?:['’]s)?(?:\\s+\\p{Lu}[\\p{L}\\p{N}&.-]*(?:['’]s)?)*");
  private static final Set<String> NOT_NAMES =
      Set.of(
          "i",
          "i'm",
          "i've",
          "i'd",
          "i'll",
          "the",
          "a",
          "an",
          "my",
          "we",
          "he",
          "she",
          "they",
          "it",
          "this",
          "that",
          "these",
          "those",
          "our",
          "your",
          "his",
          "her",
          "their",
          "you",
          "yes",
          "no",
          "ok",
          "oh",
          "so",
          "and",
          "but",
          "or",
          "if",
          "when",
          "what",
          "who",
          "where",
          "why",
          "how",
          "also",
          "today",
          "yesterday",
          "tomorrow",
          "last",
          "next",
          "there",
          "here",
          "hey",
          "hi",
          "hello",
          "thanks",
          "wow",
          "monday",
          "tuesday",
          "wednesday",
          "thursday",
          "friday",
          "saturday",
          "sunday",
          "january",
          "february",
          "march",
          "april",
          "may",
          "june",
          "july",
          "august",
          "september",
          "october",
          "november",
          "december",
          "user",
          "assistant");

  /** Most entities linked per memory (pairs grow quadratically). */
  private static final int MAX_PER_MEMORY = 5;

  private OfflineGraphExtractor() {}

  public static OfflineGraphExtractor create() {
    return new OfflineGraphExtractor();
  }

  @Override
  public Extraction extract(Input input) {
    Map<String, ExtractedEntity> entities = new LinkedHashMap<>();
    List<ExtractedRelation> relations = new ArrayList<>();
    for (NewMemory m : input.memories()) {
      List<String> names = new ArrayList<>();
      if (m.actorId() != null && !m.actorId().isBlank()) {
        names.add(m.actorId().trim());
        entities.putIfAbsent(key(m.actorId()), new ExtractedEntity(m.actorId().trim(), "person"));
      }
      for (String span : spans(m.text())) {
        if (names.stream().noneMatch(n -> key(n).equals(key(span)))) {
          names.add(span);
          entities.putIfAbsent(key(span), new ExtractedEntity(span, null));
        }
      }
      names = names.subList(0, Math.min(names.size(), MAX_PER_MEMORY));
      if (names.size() == 1) {
        relations.add(
            new ExtractedRelation(
                names.get(0), "mentioned_in", names.get(0), m.text(), null, null, List.of(m.id())));
      }
      for (int i = 0; i < names.size(); i++) {
        for (int j = i + 1; j < names.size(); j++) {
          relations.add(
              new ExtractedRelation(
                  names.get(i), "related_to", names.get(j), m.text(), null, null, List.of(m.id())));
        }
      }
    }
    return new Extraction(List.copyOf(entities.values()), relations);
  }

  /** No contradiction logic offline. */
  @Override
  public List<Verdict> judge(List<Question> questions, UsageMeter usage) {
    return List.of();
  }

  /**
   * The capitalised spans of a text that look like names, possessives removed, in order of
   * appearance.
   */
  static List<String> spans(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = SPAN.matcher(text);
    while (m.find()) {
      List<String> words = new ArrayList<>();
      for (String w : m.group().split("\\s+", -1)) {
        String bare = w.replaceAll("['’]s$", "").replaceAll("[.-]+$", "");
        if (words.isEmpty() && NOT_NAMES.contains(bare.toLowerCase(java.util.Locale.ROOT))) {
          continue;
        }
        if (!bare.isEmpty()) {
          words.add(bare);
        }
      }
      if (words.size() == 1
          && m.start() == firstLetter(text)
          && looksLikeVerbOrAdverb(words.get(0))) {
        continue;
      }
      if (!words.isEmpty()
          && !NOT_NAMES.contains(String.join(" ", words).toLowerCase(java.util.Locale.ROOT))) {
        String span = String.join(" ", words);
        if (!out.contains(span)) {
          out.add(span);
        }
      }
    }
    return out;
  }

  private static int firstLetter(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isLetter(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }

  /** A sentence-initial word such as "Painted" or "Really" is not a name. */
  private static boolean looksLikeVerbOrAdverb(String word) {
    String w = word.toLowerCase(java.util.Locale.ROOT);
    return w.endsWith("ed")
        || w.endsWith("ing")
        || w.endsWith("ly")
        || Verbs.isPast(w)
        || Verbs.isParticiple(w);
  }

  private static String key(String name) {
    return dev.engram.graph.Names.normalize(name);
  }
}
