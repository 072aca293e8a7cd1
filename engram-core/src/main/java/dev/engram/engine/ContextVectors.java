package dev.engram.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Context embeddings ({@link dev.engram.spi.StoredMemory#contextEmbedding}) for a batch of
 * memories, the one way the add path and an import make them. A memory's context embedding is the
 * embedding of its source context ({@link EmbeddingTexts#context}) plus half the memory's own
 * embedding, normalised. A memory drawn from a long message instead takes the embedding of the
 * passage that holds it, as it is. The facts of one message share its context text (or passage), so
 * a batch embeds each distinct one once, beside the memory texts in the same call, however many
 * memories it serves.
 *
 * <p>This replaced one embedding of the context followed by the memory's text per memory: on BEAM's
 * user-assistant chats an extracted fact's context is about 500 wordpieces, and a message gives
 * several facts, so the best offline mode spent most of its ingest embedding nearly the same text
 * again for each fact; a BEAM turn's ingest went 228 → 124 ms. The memory's weight was chosen among
 * 0.25, 0.5, 1 and 2 on both samples (docs/benchmarks/log.md, "Context embeddings as a sum"): at
 * 0.5 no figure of the best offline mode moved by more than 0.012 (1,500 / 500 tokens / top-10:
 * BEAM 0.751 / 0.581 / 0.533 → 0.751 / 0.569 / 0.530, LoCoMo 0.958 / 0.884 / 0.793 → 0.956 / 0.889
 * / 0.791); at 1 LoCoMo's top-10 lost 0.025. The same sum for the passages of long messages lost
 * BEAM 0.015, so they keep the passage's own embedding. Not thread-safe: one per batch.
 */
final class ContextVectors {
  /** The weight of the memory's own embedding beside its context's. */
  static final float OWN_WEIGHT = 0.5f;

  /** A memory's context text: where it is among the call's texts, and whether its own is added. */
  private record Wanted(int at, boolean plusOwn) {}

  /** What each memory's context embedding is made of, by memory id. */
  private final Map<String, Wanted> wanted = new HashMap<>();

  /** The distinct context texts, in the order they were first asked for, with their place. */
  private final Map<String, Integer> texts = new LinkedHashMap<>();

  /** Where the context texts start in the embedding call (after the memory texts). */
  private final int offset;

  /**
   * @param offset how many texts come before the context texts in the embedding call
   */
  ContextVectors(int offset) {
    this.offset = offset;
  }

  /**
   * Asks for memory {@code memoryId}'s context embedding from its source context's text ({@link
   * EmbeddingTexts#context}), to which half its own embedding is added ({@link #sum}).
   */
  void context(String memoryId, String contextText) {
    wanted.put(memoryId, new Wanted(place(contextText), true));
  }

  /**
   * Asks for memory {@code memoryId}'s context embedding from the passage of a long message that
   * holds it: the passage's embedding as it is.
   */
  void passage(String memoryId, String passageText) {
    wanted.put(memoryId, new Wanted(place(passageText), false));
  }

  private int place(String text) {
    return texts.computeIfAbsent(text, t -> offset + texts.size());
  }

  /** The distinct context texts to embed, in order, to be placed after the memory texts. */
  List<String> texts() {
    return new ArrayList<>(texts.keySet());
  }

  /**
   * Memory {@code memoryId}'s context embedding, from the call's {@code vectors} and the memory's
   * own {@code embedding}; empty if none was asked for.
   */
  Optional<float[]> of(String memoryId, List<float[]> vectors, float[] embedding) {
    Wanted w = wanted.get(memoryId);
    if (w == null) {
      return Optional.empty();
    }
    float[] context = vectors.get(w.at());
    return Optional.of(w.plusOwn() ? sum(context, embedding) : context.clone());
  }

  /**
   * The context's unit vector plus {@value #OWN_WEIGHT} times the memory's, normalised (the sum's
   * norm is at least 1 - {@value #OWN_WEIGHT}, never 0).
   *
   * @throws IllegalArgumentException if their lengths differ
   */
  static float[] sum(float[] context, float[] embedding) {
    if (embedding.length != context.length) {
      throw new IllegalArgumentException(
          "a context vector of "
              + context.length
              + " dimensions and a memory vector of "
              + embedding.length);
    }
    float[] out = context.clone();
    double norm = 0;
    for (int i = 0; i < out.length; i++) {
      out[i] += OWN_WEIGHT * embedding[i];
      norm += (double) out[i] * out[i];
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < out.length; i++) {
      out[i] *= scale;
    }
    return out;
  }
}
