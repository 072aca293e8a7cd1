package dev.engram.engine;

import dev.engram.MemoryItem;
import java.util.Locale;

/**
 * What is embedded for a memory: its text, prefixed with the speaker's name when the text does not
 * already name them ("Caroline: I went to the support group"). A verbatim turn rarely names its
 * speaker, and questions usually do ("When did Caroline go to the support group?"); on the LoCoMo
 * sample this raised evidence recall@10 of raw turns from 0.50 to 0.62 (docs/BENCHMARKS.md). The
 * stored text is unchanged.
 */
final class EmbeddingTexts {
  private EmbeddingTexts() {}

  /**
   * A context text keeps at most this many characters of the context: its last ones, from the start
   * of a word, the words nearest the memory.
   */
  static final int MAX_CONTEXT_CHARACTERS = 800;

  /**
   * What is embedded for a memory's context embedding ({@link
   * dev.engram.spi.StoredMemory#contextEmbedding}): the end of its source context, at most {@value
   * #MAX_CONTEXT_CHARACTERS} characters from the start of a word, then a line break and the
   * memory's own embedding text: the conversation read up to the fact, as contextual retrieval
   * prefixes a chunk with its context. A context ends with the memory's source messages ({@link
   * SourceContext}), so the cut keeps them and, as far as room allows, the end of the message
   * before them: the words nearest the fact. The cut is what keeps the context embeddings' ingest
   * cost within twice the default's: the model's cost grows faster than the length of its input,
   * and with the context's first 1,500 characters (about 400 wordpieces, against a fact's 21) a
   * context text cost about ten times a fact's on the BEAM sample; cut, about 250 wordpieces
   * (docs/benchmarks/log.md, "Context texts cut to the words nearest the memory"). A LoCoMo chat's
   * context is rarely cut (4 of the sample's 1,521, the longest 832 characters).
   */
  static String withContext(MemoryItem m, String context) {
    return nearestEnd(context, MAX_CONTEXT_CHARACTERS) + "\n" + of(m);
  }

  /**
   * The last {@code limit} characters of {@code text}, or fewer: from the start of the first word
   * that begins within them (the whole tail when none does), never half a character; {@code text}
   * itself when it is no longer.
   */
  static String nearestEnd(String text, int limit) {
    if (text.length() <= limit) {
      return text;
    }
    int cut = text.length() - limit;
    int start = cut;
    while (start < text.length() && !Character.isWhitespace(text.charAt(start - 1))) {
      start++;
    }
    if (start == text.length()) {
      start = cut; // one word longer than the limit: its tail
    }
    if (Character.isLowSurrogate(text.charAt(start))) {
      start++; // never half a character
    }
    return text.substring(start).strip();
  }

  static String of(MemoryItem m) {
    String actor = m.actorId();
    if (actor == null
        || actor.isBlank()
        || m.text().toLowerCase(Locale.ROOT).contains(actor.toLowerCase(Locale.ROOT))) {
      return m.text();
    }
    return actor + ": " + m.text();
  }
}
