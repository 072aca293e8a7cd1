package dev.engram.mcp;

import dev.engram.AddResult;
import dev.engram.EventType;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.json.MemoryJson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * The short plain-text renderings of tool results that a model reads beside the structured content:
 * one line per memory with its text, date, score and id, so the model can quote a memory and pass
 * its id to the next call. Stateless.
 */
final class ToolText {
  private ToolText() {}

  static String added(Scope scope, AddResult r) {
    if (r.events().isEmpty()) {
      return "Nothing new to remember in " + scope.key() + " (no facts found in the input).";
    }
    long changed = r.events().stream().filter(e -> e.event() != EventType.NOOP).count();
    StringBuilder b =
        new StringBuilder(
            "Stored in "
                + scope.key()
                + ": "
                + changed
                + " change"
                + (changed == 1 ? "" : "s")
                + ".");
    for (MemoryEvent e : r.events()) {
      b.append("\n- ").append(e.event().name()).append(": ").append(e.memory());
      if (e.event() == EventType.UPDATE && e.previousMemory() != null) {
        b.append(" (was: ").append(e.previousMemory()).append(')');
      }
      b.append(" [id ").append(e.id()).append(']');
    }
    r.relations()
        .ifPresent(
            c -> {
              if (!c.added().isEmpty() || !c.invalidated().isEmpty()) {
                b.append("\nGraph: ")
                    .append(c.added().size())
                    .append(" relation(s) added, ")
                    .append(c.invalidated().size())
                    .append(" invalidated.");
              }
            });
    return b.toString();
  }

  static String searched(Scope scope, String query, SearchResult r) {
    if (r.hits().isEmpty() && r.relations().isEmpty()) {
      return "No memories in " + scope.key() + " match \"" + query + "\".";
    }
    StringBuilder b =
        new StringBuilder(
            r.hits().size()
                + " memor"
                + (r.hits().size() == 1 ? "y" : "ies")
                + " in "
                + scope.key()
                + " for \""
                + query
                + "\", best first:");
    int i = 1;
    for (SearchHit h : r.hits()) {
      b.append('\n')
          .append(i++)
          .append(". ")
          .append(h.memory().text())
          .append(" (")
          .append(date(h.memory()))
          .append(", score ")
          .append(String.format(Locale.ROOT, "%.2f", h.score()))
          .append(", id ")
          .append(h.memory().id())
          .append(')');
    }
    if (!r.relations().isEmpty()) {
      b.append("\nRelated facts from the graph:");
      relationLines(b, r.relations());
    }
    return b.toString();
  }

  static String listed(Scope scope, Page<MemoryItem> p) {
    if (p.items().isEmpty()) {
      return p.total() == 0
          ? "No memories in " + scope.key() + "."
          : "No memories at offset " + p.offset() + "; " + scope.key() + " has " + p.total() + ".";
    }
    StringBuilder b =
        new StringBuilder(
            "Memories "
                + (p.offset() + 1)
                + "-"
                + (p.offset() + p.items().size())
                + " of "
                + p.total()
                + " in "
                + scope.key()
                + ", newest first:");
    for (MemoryItem m : p.items()) {
      b.append("\n- ").append(line(m));
    }
    if (p.hasMore()) {
      b.append("\nMore: call again with offset ").append(p.offset() + p.items().size()).append('.');
    }
    return b.toString();
  }

  static String item(MemoryItem m) {
    StringBuilder b = new StringBuilder(line(m));
    b.append("\nscope: ").append(m.scope().key());
    if (!m.metadata().isEmpty()) {
      b.append("\nmetadata: ").append(MemoryJson.write(MemoryJson.metadata(m.metadata())));
    }
    if (m.expirationDate() != null) {
      b.append("\nexpires: ").append(m.expirationDate());
    }
    return b.toString();
  }

  static String updated(MemoryItem m) {
    return "Updated: " + line(m);
  }

  static String deleted(MemoryItem m) {
    return "Deleted memory " + m.id() + " (\"" + m.text() + "\"); its history is kept.";
  }

  static String deletedAll(Scope scope, int count) {
    return "Deleted " + count + " memor" + (count == 1 ? "y" : "ies") + " of " + scope.key() + ".";
  }

  static String history(String id, List<HistoryEntry> rows) {
    StringBuilder b = new StringBuilder("History of memory " + id + ", oldest first:");
    for (HistoryEntry h : rows) {
      b.append("\n- ").append(h.at()).append(' ').append(h.event().name()).append(": ");
      switch (h.event()) {
        case ADD -> b.append(h.newText());
        case DELETE -> b.append(h.oldText());
        default -> b.append(h.oldText()).append(" -> ").append(h.newText());
      }
      b.append(" (by ").append(h.pipeline()).append(')');
    }
    return b.toString();
  }

  static String relations(Scope scope, String entity, List<GraphRelation> relations) {
    if (relations.isEmpty()) {
      return "No relations of \""
          + entity
          + "\" in "
          + scope.key()
          + " (unknown entity, or graph memory is off).";
    }
    StringBuilder b =
        new StringBuilder(
            relations.size()
                + " relation"
                + (relations.size() == 1 ? "" : "s")
                + " around \""
                + entity
                + "\" in "
                + scope.key()
                + ":");
    relationLines(b, relations);
    return b.toString();
  }

  private static void relationLines(StringBuilder b, List<GraphRelation> relations) {
    for (GraphRelation g : relations) {
      b.append("\n- ")
          .append(g.source())
          .append(" -[")
          .append(g.relationship())
          .append("]-> ")
          .append(g.destination())
          .append(": ")
          .append(g.fact());
      if (g.validAt() != null || g.invalidAt() != null) {
        b.append(" (");
        if (g.validAt() != null) {
          b.append("since ").append(day(g.validAt()));
        }
        if (g.invalidAt() != null) {
          b.append(g.validAt() != null ? ", " : "").append("until ").append(day(g.invalidAt()));
        }
        b.append(')');
      }
    }
  }

  private static String line(MemoryItem m) {
    return m.text() + " (" + date(m) + ", id " + m.id() + ")";
  }

  /** The day the memory's conversation took place, else the day it was stored. */
  private static String date(MemoryItem m) {
    return m.eventTime() != null ? day(m.eventTime()) : "stored " + day(m.createdAt());
  }

  private static String day(Instant at) {
    return at.atOffset(ZoneOffset.UTC).toLocalDate().toString();
  }
}
