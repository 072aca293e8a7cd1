package dev.engram.engine;

import dev.engram.EngramException;
import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Vector checks shared by the write and search paths. */
final class Vectors {
  private Vectors() {}

  /**
   * Embeds stored texts in one call ({@link Embedder#embedDocuments}, which may deal them over the
   * cores) and checks and normalises each vector ({@link #normalized}): the one way the engine
   * embeds documents (memory texts, their contexts, graph facts and entity names). A text given
   * more than once is embedded once (a pasted log or a repeated code line splits into identical
   * passages; an embedder's vector is a function of its text), and each place gets a vector of its
   * own. No call for no texts.
   *
   * @throws EngramException if the embedder returns another number of vectors than distinct texts,
   *     or a bad vector (the message names {@code what})
   */
  static List<float[]> embedDocuments(Embedder embedder, List<String> texts, String what) {
    return embedDocuments(embedder, texts, what, Map.of());
  }

  /**
   * {@link #embedDocuments(Embedder, List, String)}, but a text {@code embedded} holds (embedded
   * earlier by this embedder, checked and normalised) takes a copy of that vector instead of being
   * embedded again; no call if every text is held.
   */
  static List<float[]> embedDocuments(
      Embedder embedder, List<String> texts, String what, Map<String, float[]> embedded) {
    if (!embedded.isEmpty()) {
      List<String> unheld = texts.stream().filter(t -> !embedded.containsKey(t)).toList();
      if (unheld.size() < texts.size()) {
        Iterator<float[]> fresh = embedDocuments(embedder, unheld, what).iterator();
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
          float[] held = embedded.get(t);
          out.add(held != null ? held.clone() : fresh.next());
        }
        return out;
      }
    }
    if (texts.isEmpty()) {
      return List.of();
    }
    Map<String, Integer> distinctIndex = new LinkedHashMap<>();
    int[] distinctOf = new int[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      distinctOf[i] = distinctIndex.computeIfAbsent(texts.get(i), t -> distinctIndex.size());
    }
    List<String> distinct =
        distinctIndex.size() == texts.size() ? texts : List.copyOf(distinctIndex.keySet());
    List<float[]> vectors = embedder.embedDocuments(distinct);
    if (vectors == null || vectors.size() != distinct.size()) {
      throw new EngramException(
          "the embedder returned "
              + (vectors == null ? "no list" : vectors.size() + " vectors")
              + " for "
              + distinct.size()
              + " texts ("
              + what
              + ")");
    }
    List<float[]> checked = new ArrayList<>(vectors.size());
    for (float[] v : vectors) {
      checked.add(normalized(v, embedder.dimension(), what));
    }
    if (distinct == texts) {
      return checked;
    }
    List<float[]> out = new ArrayList<>(texts.size());
    boolean[] handedOut = new boolean[checked.size()];
    for (int d : distinctOf) {
      out.add(handedOut[d] ? checked.get(d).clone() : checked.get(d));
      handedOut[d] = true;
    }
    return out;
  }

  /** Checks the length and finiteness of a vector, and L2-normalises it in place. */
  static float[] normalized(float[] v, int dimension, String what) {
    if (v == null || v.length != dimension) {
      throw new EngramException(
          "the embedder returned a vector of "
              + (v == null ? "null" : v.length + " dims")
              + " for "
              + what
              + "; expected "
              + dimension);
    }
    double sum = 0;
    for (float x : v) {
      if (!Float.isFinite(x)) {
        throw new EngramException("the embedder returned a non-finite value for " + what);
      }
      sum += x * x;
    }
    if (sum == 0) {
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
