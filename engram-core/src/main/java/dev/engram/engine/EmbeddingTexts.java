package dev.engram.engine;

import dev.engram.MemoryItem;
import java.util.Locale;

/**
 * What is embedded for a memory: its text, prefixed with the speaker's name when the text does not already name
 * them ("Caroline: I went to the support group"). A verbatim turn rarely names its speaker, and questions usually
 * do ("When did Caroline go to the support group?"); on the LoCoMo sample this raised evidence recall@10 of raw
 * turns from 0.50 to 0.62 (docs/BENCHMARKS.md). The stored text is unchanged.
 */
final class EmbeddingTexts {
  private EmbeddingTexts() {}

  static String of(MemoryItem m) {
    String actor = m.actorId();
    if (actor == null || actor.isBlank() || m.text().toLowerCase(Locale.ROOT).contains(actor.toLowerCase(Locale.ROOT))) {
      return m.text();
    }
    return actor + ": " + m.text();
  }
}
