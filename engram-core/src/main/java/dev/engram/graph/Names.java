package dev.engram.graph;

import java.text.Normalizer;
import java.util.Locale;

/** Normalisation of entity and relation names. */
public final class Names {
  private Names() {}

  /**
   * The lookup key of an entity name: Unicode NFKC, lower case, accents kept, every run of
   * characters that are not letters or digits (spaces, underscores, punctuation) turned into one
   * space, trimmed. So {@code "Alice"}, {@code "alice."} and {@code " ALICE "} share a key, as do
   * {@code "New_York"} and {@code "new york"}.
   */
  public static String normalize(String name) {
    String s = Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    s = s.replaceAll("['’]s\\b", "").replaceAll("[^\\p{L}\\p{N}]+", " ").trim();
    return s;
  }

  /**
   * A relation name in snake_case: lower case, runs of non-alphanumeric characters turned into one
   * underscore, no leading or trailing underscore; {@code related_to} if nothing is left.
   */
  public static String relation(String name) {
    String s =
        Normalizer.normalize(name, Normalizer.Form.NFKC)
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N}]+", "_")
            .replaceAll("^_+|_+$", "");
    return s.isEmpty() ? "related_to" : s;
  }
}
