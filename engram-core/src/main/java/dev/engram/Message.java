package dev.engram;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One conversation message given to {@code add}.
 *
 * @param role who wrote it
 * @param content the text; not blank
 * @param name the speaker's name (for example "Caroline"), or null
 * @param timestamp when the message was said (conversation time), or null to use the request's
 *     timestamp
 * @param sourceId a caller-chosen id of the message (for example a LoCoMo dia_id), kept as
 *     provenance, or null
 */
public record Message(Role role, String content, String name, Instant timestamp, String sourceId) {
  public Message {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    if (name != null && name.isBlank()) {
      name = null;
    }
    if (sourceId != null && sourceId.isBlank()) {
      sourceId = null;
    }
  }

  public static Message user(String content) {
    return new Message(Role.USER, content, null, null, null);
  }

  public static Message assistant(String content) {
    return new Message(Role.ASSISTANT, content, null, null, null);
  }

  public static Message system(String content) {
    return new Message(Role.SYSTEM, content, null, null, null);
  }

  public Message withName(String speaker) {
    return new Message(role, content, speaker, timestamp, sourceId);
  }

  public Message withTimestamp(Instant at) {
    return new Message(role, content, name, at, sourceId);
  }

  public Message withSourceId(String id) {
    return new Message(role, content, name, timestamp, id);
  }

  public Optional<String> nameOptional() {
    return Optional.ofNullable(name);
  }
}
