package dev.engram.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Keyword query text to terms: the text is analysed like indexed text and its distinct terms are
 * kept in order of first appearance. No query syntax is parsed, so quotes, colons, brackets or a
 * lone {@code *} are ordinary text. Also the one place that prepares text for analysis ({@link
 * #wellFormed}).
 */
final class QueryTerms {
  private QueryTerms() {}

  /**
   * The first {@code max} distinct terms of {@code text} as {@code analyzer} produces them for
   * {@code field}.
   */
  static List<String> analyze(Analyzer analyzer, String field, String text, int max) {
    Set<String> terms = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(field, wellFormed(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (terms.size() < max && ts.incrementToken()) {
        if (term.length() > 0) {
          terms.add(term.toString());
        }
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException("could not analyse the query text", e);
    }
    return new ArrayList<>(terms);
  }

  /**
   * {@code text} with each unpaired surrogate replaced by U+FFFD. Lucene's tokenizers lose every
   * token of a text that ends in an unpaired high surrogate, so analysed text (indexed or queried)
   * goes through this first.
   */
  static String wellFormed(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean paired =
          Character.isHighSurrogate(c)
              && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1));
      if (paired) {
        if (out != null) {
          out.append(c).append(text.charAt(i + 1));
        }
        i++;
      } else if (Character.isSurrogate(c)) {
        if (out == null) {
          out = new StringBuilder(text.length()).append(text, 0, i);
        }
        out.append('\uFFFD');
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }
}
