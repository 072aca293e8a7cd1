package dev.engram.bench;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Retrieval metrics that need no LLM: evidence recall, hit, the reciprocal rank of the first hit
 * with evidence, and answer-token recall.
 */
public final class RetrievalMetrics {
  private static final Set<String> STOP_WORDS =
      Set.of(
          "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from",
          "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "as", "but", "not",
          "no", "yes", "he", "she", "they", "her", "his", "their", "them", "i", "you", "we", "my",
          "your", "our", "do", "did", "does", "has", "have", "had", "so", "than", "then", "there",
          "which", "who", "what", "when", "where", "how", "about");

  private RetrievalMetrics() {}

  /**
   * The share of gold evidence ids found among the retrieved source ids (1 if there is no
   * evidence).
   */
  public static double evidenceRecall(
      Collection<String> evidence, Collection<String> retrievedSourceIds) {
    Set<String> gold = new HashSet<>(evidence);
    if (gold.isEmpty()) {
      return 1.0;
    }
    int found = 0;
    for (String g : gold) {
      if (retrievedSourceIds.contains(g)) {
        found++;
      }
    }
    return (double) found / gold.size();
  }

  /** 1 if any gold evidence id was retrieved, else 0. */
  public static double hit(Collection<String> evidence, Collection<String> retrievedSourceIds) {
    for (String g : evidence) {
      if (retrievedSourceIds.contains(g)) {
        return 1.0;
      }
    }
    return evidence.isEmpty() ? 1.0 : 0.0;
  }

  /**
   * 1 / the rank (from 1) of the first of the ranked hits whose source ids hold a gold evidence id;
   * 0 if none does or there is no evidence. Its mean over questions is the mean reciprocal rank:
   * how near the top the evidence is shown, where recall only says whether it is shown at all.
   *
   * @param hitSourceIds each hit's source ids, in the order the hits are shown
   */
  public static double reciprocalRank(
      Collection<String> evidence, List<? extends Collection<String>> hitSourceIds) {
    for (int i = 0; i < hitSourceIds.size(); i++) {
      for (String id : hitSourceIds.get(i)) {
        if (evidence.contains(id)) {
          return 1.0 / (i + 1);
        }
      }
    }
    return 0.0;
  }

  /**
   * The share of the answer's normalised content tokens that appear in the retrieved texts (1 if
   * none).
   */
  public static double answerTokenRecall(String answer, List<String> retrievedTexts) {
    Set<String> gold = contentTokens(answer);
    if (gold.isEmpty()) {
      return 1.0;
    }
    Set<String> seen = new HashSet<>();
    for (String t : retrievedTexts) {
      seen.addAll(contentTokens(t));
    }
    int found = 0;
    for (String g : gold) {
      if (seen.contains(g)) {
        found++;
      }
    }
    return (double) found / gold.size();
  }

  /** Lower-cased alphanumeric tokens without stop words. */
  public static Set<String> contentTokens(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+", -1)) {
      if (!t.isEmpty() && !STOP_WORDS.contains(t)) {
        out.add(t);
      }
    }
    return out;
  }
}
