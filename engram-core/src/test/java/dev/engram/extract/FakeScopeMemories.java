package dev.engram.extract;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.spi.MemoryInference.ScopeMemories;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An in-memory fake of a scope's memories for extractor tests: {@link #withText} matches the
 * trimmed text exactly, {@link #similar} ranks by the number of shared lower-case tokens (ties in
 * insertion order) and leaves out memories that share none. It records every query so tests can see
 * what the extractor asked.
 */
final class FakeScopeMemories implements ScopeMemories {

  private static final Instant CREATED = Instant.parse("2023-01-01T00:00:00Z");

  private final List<MemoryItem> memories = new ArrayList<>();
  private final List<String> similarQueries = new ArrayList<>();
  private final List<String> exactQueries = new ArrayList<>();

  /** Stores a memory with this id and text in scope user "u1". */
  FakeScopeMemories with(String id, String text) {
    memories.add(
        new MemoryItem(
            id,
            text,
            Hashes.md5(text),
            Map.of(),
            "u1",
            null,
            null,
            null,
            null,
            CREATED,
            CREATED,
            null,
            List.of(),
            null));
    return this;
  }

  List<String> similarQueries() {
    return List.copyOf(similarQueries);
  }

  List<String> exactQueries() {
    return List.copyOf(exactQueries);
  }

  @Override
  public List<MemoryItem> similar(String text, int k) {
    similarQueries.add(text);
    Set<String> query = tokens(text);
    List<MemoryItem> ranked = new ArrayList<>();
    for (MemoryItem m : memories) {
      if (shared(query, m) > 0) {
        ranked.add(m);
      }
    }
    ranked.sort(Comparator.comparingInt((MemoryItem m) -> shared(query, m)).reversed());
    return ranked.subList(0, Math.min(k, ranked.size()));
  }

  /** As {@link #similar}: this fake ranks by shared words already. */
  @Override
  public List<MemoryItem> sharingWords(String text, int k) {
    return similar(text, k);
  }

  @Override
  public List<MemoryItem> withText(String text) {
    exactQueries.add(text);
    return memories.stream().filter(m -> m.text().equals(text.trim())).toList();
  }

  private static int shared(Set<String> query, MemoryItem m) {
    Set<String> t = tokens(m.text());
    t.retainAll(query);
    return t.size();
  }

  private static Set<String> tokens(String text) {
    Set<String> out = new HashSet<>();
    for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }
}
