package dev.engram;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to remember: messages in a scope, with options. Build with {@link #builder(Scope)}.
 * Immutable.
 *
 * @param scope owner of the new memories
 * @param messages the messages, oldest first; at least one
 * @param metadata metadata stored on every memory this add creates
 * @param infer true to extract facts (LLM or offline extractor); false to store each non-system
 *     message verbatim
 * @param timestamp when the conversation took place, for messages without their own timestamp; or
 *     null, and then such messages were said when the add was received: the engine uses its clock's
 *     instant at the start of the add as their time (for relative dates, {@code event_time} and the
 *     graph)
 * @param expiration first day on which the new memories are expired; or null
 */
public record AddRequest(
    Scope scope,
    List<Message> messages,
    Map<String, Object> metadata,
    boolean infer,
    Instant timestamp,
    LocalDate expiration) {

  public AddRequest {
    Objects.requireNonNull(scope, "scope");
    messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    if (messages.isEmpty()) {
      throw new ValidationException("messages", "at least one message is required");
    }
    metadata = JsonValues.immutableObject(metadata == null ? Map.of() : metadata);
  }

  public static Builder builder(Scope scope) {
    return new Builder(scope);
  }

  /** Builder for {@link AddRequest}; {@code infer} defaults to true. Not thread-safe. */
  public static final class Builder {
    private final Scope scope;
    private final List<Message> messages = new ArrayList<>();
    private Map<String, Object> metadata = Map.of();
    private boolean infer = true;
    private Instant timestamp;
    private LocalDate expiration;

    private Builder(Scope scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
    }

    public Builder message(Message m) {
      messages.add(Objects.requireNonNull(m, "message"));
      return this;
    }

    public Builder messages(List<Message> ms) {
      ms.forEach(this::message);
      return this;
    }

    /** Adds a user message. */
    public Builder user(String content) {
      return message(Message.user(content));
    }

    /** Adds an assistant message. */
    public Builder assistant(String content) {
      return message(Message.assistant(content));
    }

    public Builder metadata(Map<String, ?> m) {
      this.metadata = JsonValues.immutableObject(Objects.requireNonNull(m, "metadata"));
      return this;
    }

    public Builder infer(boolean value) {
      this.infer = value;
      return this;
    }

    public Builder timestamp(Instant at) {
      this.timestamp = at;
      return this;
    }

    public Builder expiration(LocalDate date) {
      this.expiration = date;
      return this;
    }

    public AddRequest build() {
      return new AddRequest(scope, messages, metadata, infer, timestamp, expiration);
    }
  }
}
