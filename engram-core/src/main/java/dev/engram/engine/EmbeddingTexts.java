package dev.engram.engine;

import dev.engram.MemoryItem;
import dev.engram.text.SymbolFolding;
import java.util.Locale;

/**
 * What is embedded for a memory: its text, prefixed with the speaker's name when the text does not
 * already name them ("Caroline: I went to the support group"). A verbatim turn rarely names its
 * speaker, and questions usually do ("When did Caroline go to the support group?"); on the LoCoMo
 * sample this raised evidence recall@10 of raw turns from 0.50 to 0.62 (docs/BENCHMARKS.md). A
 * passage of a long message, stored as a memory or holding a memory's context, is embedded with its
 * symbols read as spaces ({@link SymbolFolding}). The stored text is unchanged.
 */
final class EmbeddingTexts {
  private EmbeddingTexts() {}

  /** A context text keeps at most this many characters of the context (its first ones). */
  static final int MAX_CONTEXT_CHARACTERS = 1_500;

  /**
   * What is embedded for the passage of a long message that holds a memory drawn from it, as that
   * memory's context embedding ({@link ContextVectors#passage}): its words, symbols read as spaces
   * ({@link SymbolFolding}), as for a passage stored as a memory.
   */
  static String holdingPassage(String passage) {
    return SymbolFolding.fold(passage);
  }

  /**
   * What is embedded for a memory's context ({@link ContextVectors}, which adds the memory's own
   * embedding to it): its source context, cut to {@value #MAX_CONTEXT_CHARACTERS} characters (about
   * 400 tokens, so that one long add does not cost a model's whole input window per context).
   */
  static String context(String context) {
    int end = Math.min(context.length(), MAX_CONTEXT_CHARACTERS);
    if (end < context.length() && Character.isHighSurrogate(context.charAt(end - 1))) {
      end--; // never half a character
    }
    return context.substring(0, end);
  }

  /**
   * What is embedded for a memory: its text, with the speaker's name before it (above), and, for a
   * passage of a long message ({@link MemoryItem#PASSAGE_START}), with its symbols read as spaces
   * ({@link SymbolFolding}): such passages hold the pasted code, Markdown and logs whose symbols an
   * in-process model would embed at the cost of words.
   */
  static String of(MemoryItem m) {
    String text =
        m.metadata().containsKey(MemoryItem.PASSAGE_START)
            ? SymbolFolding.fold(m.text())
            : m.text();
    String actor = m.actorId();
    if (actor == null
        || actor.isBlank()
        || m.text().toLowerCase(Locale.ROOT).contains(actor.toLowerCase(Locale.ROOT))) {
      return text;
    }
    return actor + ": " + text;
  }
}
