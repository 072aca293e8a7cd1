package dev.engram.pipeline;

import dev.engram.Message;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The pipeline's prompt texts (resource files in our own words) and the way messages are shown to
 * models.
 */
public final class Prompts {
  public static final String EXTRACT_FACTS = load("extract-facts.txt");
  public static final String DECIDE_UPDATES = load("decide-updates.txt");
  public static final String ADDITIVE_EXTRACT = load("additive-extract.txt");
  public static final String SUMMARIZE = load("summarize.txt");
  public static final String PROCEDURAL = load("procedural.txt");
  public static final String RERANK = load("rerank.txt");

  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm (EEEE)", Locale.ENGLISH)
          .withZone(ZoneOffset.UTC);

  private Prompts() {}

  /** A system prompt with custom instructions (or nothing) in place of {@code {{instructions}}}. */
  static String withInstructions(String template, String instructions) {
    return template
        .replace("{{instructions}}", instructions.isEmpty() ? "" : "- " + instructions + "\n")
        .replace("\n\n", "\n")
        .trim();
  }

  /** One line per message: {@code [2023-05-08 13:56 (Monday)] Caroline (user): text}. */
  static String transcript(List<Message> messages) {
    if (messages.isEmpty()) {
      return "(none)";
    }
    StringBuilder sb = new StringBuilder();
    for (Message m : messages) {
      if (m.timestamp() != null) {
        sb.append('[').append(WHEN.format(m.timestamp())).append("] ");
      }
      sb.append(
              m.name() != null ? m.name() + " (" + m.role().wireName() + ")" : m.role().wireName())
          .append(": ")
          .append(m.content().trim())
          .append('\n');
    }
    return sb.toString().trim();
  }

  private static String load(String name) {
    try (InputStream in = Prompts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing prompt resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
