package dev.engram.bench.locomo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fifty general questions that name no one ({@code general-questions.txt} beside this class, one a
 * line): how-to, science and everyday questions that no benchmark conversation answers. {@code
 * engram bench locomo --off-topic} asks each of them of every store; a search that returns nothing
 * for them is right. Written for this harness, with no name in them (no word capitalised but the
 * first), so that the step {@code names} cannot be what empties them.
 */
public final class GeneralQuestions {
  /** The resource with the questions. */
  static final String RESOURCE = "general-questions.txt";

  private GeneralQuestions() {}

  /** The questions, in the file's order. */
  public static List<String> all() {
    try (InputStream in = GeneralQuestions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing beside " + GeneralQuestions.class);
      }
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        return r.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
