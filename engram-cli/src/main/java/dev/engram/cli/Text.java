package dev.engram.cli;

import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.json.MemoryJson;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Human-readable, one-line-per-record renderings of API values for the text output of the commands.
 */
final class Text {
  private Text() {}

  /** {@code ADD <id> <text>}, with the previous text for UPDATE. */
  static String event(MemoryEvent e) {
    String line =
        String.format(Locale.ROOT, "%-7s %s  %s", e.event().name(), e.id(), oneLine(e.memory()));
    if (e.previousMemory() != null) {
      line += "  (was: " + oneLine(e.previousMemory()) + ")";
    }
    return line;
  }

  /** {@code 1. 0.8123 <id> [speaker, 2023-05-08] text}. */
  static String hit(int rank, SearchHit h) {
    return String.format(
        Locale.ROOT, "%2d. %.4f  %s  %s", rank, h.score(), h.memory().id(), labelled(h.memory()));
  }

  /** The per-signal scores of a hit, indented under it. */
  static String details(ScoreDetails d) {
    String s =
        String.format(
            Locale.ROOT,
            "      semantic %.4f (#%d)  bm25 %.4f (#%d)  fused %.4f (%s)",
            d.semantic(),
            d.semanticRank(),
            d.keyword(),
            d.keywordRank(),
            d.fused(),
            d.fusion().toLowerCase(Locale.ROOT));
    return Double.isNaN(d.rerank())
        ? s
        : s + String.format(Locale.ROOT, "  rerank %.4f", d.rerank());
  }

  /** {@code <id> <created_at> [speaker, date] text}. */
  static String listed(MemoryItem m) {
    return m.id() + "  " + m.createdAt().truncatedTo(ChronoUnit.SECONDS) + "  " + labelled(m);
  }

  /** Every field of a memory, one per line. */
  static List<String> item(MemoryItem m) {
    List<String> out = new ArrayList<>();
    field(out, "id", m.id());
    field(out, "memory", m.text());
    field(out, "hash", m.hash());
    field(
        out,
        "metadata",
        m.metadata().isEmpty() ? null : MemoryJson.write(MemoryJson.metadata(m.metadata())));
    field(out, "user_id", m.userId());
    field(out, "agent_id", m.agentId());
    field(out, "run_id", m.runId());
    field(out, "actor_id", m.actorId());
    field(out, "role", m.role() == null ? null : m.role().wireName());
    field(out, "event_time", time(m.eventTime()));
    field(out, "source_ids", m.sourceIds().isEmpty() ? null : String.join(", ", m.sourceIds()));
    field(
        out, "expiration_date", m.expirationDate() == null ? null : m.expirationDate().toString());
    field(out, "created_at", time(m.createdAt()));
    field(out, "updated_at", time(m.updatedAt()));
    return out;
  }

  /** {@code #12 <time> UPDATE "old" -> "new" (actor, role) by <pipeline>}. */
  static String history(HistoryEntry h) {
    String change =
        switch (h.event()) {
          case ADD -> quote(h.newText());
          case DELETE -> quote(h.oldText()) + " (deleted)";
          default -> quote(h.oldText()) + " -> " + quote(h.newText());
        };
    String who =
        h.actorId() == null && h.role() == null
            ? ""
            : "  ("
                + (h.actorId() == null ? "-" : h.actorId())
                + ", "
                + (h.role() == null ? "-" : h.role().wireName())
                + ")";
    return String.format(
        Locale.ROOT,
        "#%d  %s  %-7s %s%s  by %s",
        h.seq(),
        h.at(),
        h.event().name(),
        change,
        who,
        h.pipeline());
  }

  /** The text prefixed with its speaker and conversation date when known. */
  static String labelled(MemoryItem m) {
    List<String> label = new ArrayList<>(2);
    if (m.actorId() != null) {
      label.add(m.actorId());
    }
    if (m.eventTime() != null) {
      label.add(m.eventTime().toString().substring(0, 10));
    }
    return (label.isEmpty() ? "" : "[" + String.join(", ", label) + "]  ") + oneLine(m.text());
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ");
  }

  private static String quote(String s) {
    return s == null ? "-" : "\"" + oneLine(s) + "\"";
  }

  private static String time(Instant t) {
    return t == null ? null : t.toString();
  }

  private static void field(List<String> out, String name, String value) {
    if (value != null) {
      out.add(String.format(Locale.ROOT, "%-17s%s", name + ":", value));
    }
  }
}
