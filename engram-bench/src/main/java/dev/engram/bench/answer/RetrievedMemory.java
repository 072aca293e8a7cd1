package dev.engram.bench.answer;

import dev.engram.MemoryItem;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * One retrieved memory (or chunk) as the answer model sees it: its text, who it is about or who
 * said it, and when it happened. Immutable.
 *
 * @param text the memory text
 * @param speaker the speaker or owner, or {@code ""} when unknown (null becomes {@code ""}); leave
 *     it empty when the text already starts with the speaker's name
 * @param time when the memory happened (the session time for LoCoMo), or null when unknown
 */
public record RetrievedMemory(String text, String speaker, Instant time) {
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("d MMMM yyyy (EEEE), HH:mm", Locale.ENGLISH)
          .withZone(ZoneOffset.UTC);

  public RetrievedMemory {
    Objects.requireNonNull(text, "text");
    speaker = speaker == null ? "" : speaker.strip();
  }

  /** A memory with a time and no speaker. */
  public static RetrievedMemory of(String text, Instant time) {
    return new RetrievedMemory(text, "", time);
  }

  /** A retrieved memory as the answer model sees it: its text, actor and event time. */
  public static RetrievedMemory of(MemoryItem memory) {
    return new RetrievedMemory(memory.text(), memory.actorId(), memory.eventTime());
  }

  /** One prompt line: {@code - [8 May 2023 (Monday), 13:56] Caroline: text}. */
  public String render() {
    StringBuilder sb = new StringBuilder("- ");
    if (time != null) {
      sb.append('[').append(WHEN.format(time)).append("] ");
    }
    if (!speaker.isEmpty()) {
      sb.append(speaker).append(": ");
    }
    return sb.append(text.strip().replaceAll("\\s*\\R\\s*", " ")).toString();
  }
}
