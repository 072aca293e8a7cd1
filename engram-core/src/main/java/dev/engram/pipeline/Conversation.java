package dev.engram.pipeline;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.spi.MemoryInference.InferenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What the pipeline derives from an add's messages: provenance, time and speaker. */
record Conversation(
    List<Message> newMessages,
    List<Message> recent,
    List<String> sourceIds,
    Instant time,
    String speaker) {

  static Conversation of(InferenceContext ctx, int recentLimit) {
    List<Message> fresh = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    Set<String> speakers = new LinkedHashSet<>();
    Instant time = ctx.timestamp();
    for (Message m : ctx.messages()) {
      if (m.role() == Role.SYSTEM) {
        continue;
      }
      Message withTime =
          m.timestamp() == null && ctx.timestamp() != null ? m.withTimestamp(ctx.timestamp()) : m;
      fresh.add(withTime);
      if (m.sourceId() != null) {
        ids.add(m.sourceId());
      }
      if (m.name() != null && m.role() == Role.USER) {
        speakers.add(m.name());
      }
      if (withTime.timestamp() != null && (time == null || withTime.timestamp().isAfter(time))) {
        time = withTime.timestamp();
      }
    }
    List<Message> recent = ctx.recentMessages();
    if (recent.size() > recentLimit) {
      recent = recent.subList(recent.size() - recentLimit, recent.size());
    }
    return new Conversation(
        fresh,
        recent,
        List.copyOf(ids),
        time,
        speakers.size() == 1 ? speakers.iterator().next() : null);
  }

  /** The user message of an extraction prompt. */
  String extractionInput(String summary) {
    return "## Summary\n"
        + (summary.isBlank() ? "(none)" : summary.trim())
        + "\n\n## Recent messages\n"
        + Prompts.transcript(recent)
        + "\n\n## New messages\n"
        + Prompts.transcript(newMessages);
  }
}
