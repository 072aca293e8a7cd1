package dev.engram.extract;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The near-duplicate measure of the offline extractor: Jaccard similarity of normalised token sets.
 * Texts are lower-cased (root locale), typographic apostrophes straightened, and cut into runs of
 * letters and digits, so case, punctuation, spacing and word order do not count; the similarity is
 * |A ∩ B| / |A ∪ B| of the two sets, 1.0 for two texts without any token. Dates added by {@link
 * TimeResolver} are tokens, so the same sentence said about different days is not a duplicate.
 *
 * <p>Stateless and thread-safe.
 */
final class TokenJaccard {

  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");

  private TokenJaccard() {}

  /** The normalised token set of {@code text}. */
  static Set<String> tokens(String text) {
    Set<String> out = new HashSet<>();
    Matcher m = TOKEN.matcher(text.replace('\u2019', '\'').toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  /** Jaccard similarity of the token sets of {@code a} and {@code b}, in [0, 1]. */
  static double similarity(String a, String b) {
    Set<String> x = tokens(a);
    Set<String> y = tokens(b);
    if (x.isEmpty() && y.isEmpty()) {
      return 1.0;
    }
    Set<String> union = new HashSet<>(x);
    union.addAll(y);
    x.retainAll(y);
    return (double) x.size() / union.size();
  }
}
