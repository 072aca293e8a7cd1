package dev.engram.bench.locomo;

import dev.engram.GraphRelation;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * How the harness puts a graph relation into a context: one line, its fact (inner line breaks as
 * spaces) and, when set, its event-time bounds as UTC dates in brackets: {@code <fact> [valid from
 * 2023-05-08]}, {@code <fact> [valid 2023-05-08 to 2023-06-01]} or {@code <fact> [valid until
 * 2023-06-01]}. The line is what the answer model sees and what {@code context_tokens_prompt}
 * counts; context tokens and answer-token recall count the fact alone, as they count a memory's
 * text without its date. Source, relationship and destination are left out: the fact sentence
 * states them (with the offline graph it is the memory text itself).
 */
public final class RelationLine {
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

  private RelationLine() {}

  /** The relation as one line. */
  public static String render(GraphRelation r) {
    Objects.requireNonNull(r, "r");
    String fact = r.fact().strip().replaceAll("\\s*\\R\\s*", " ");
    Instant from = r.validAt();
    Instant to = r.invalidAt();
    if (from == null && to == null) {
      return fact;
    }
    if (to == null) {
      return fact + " [valid from " + DAY.format(from) + "]";
    }
    if (from == null) {
      return fact + " [valid until " + DAY.format(to) + "]";
    }
    return fact + " [valid " + DAY.format(from) + " to " + DAY.format(to) + "]";
  }
}
