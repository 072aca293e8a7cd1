package dev.engram.engine;

import dev.engram.Message;
import java.time.Instant;
import java.util.List;

/** Small helpers about messages shared by the write paths. */
final class Messages {
  private Messages() {}

  /** When a message was said and the id it is known by. */
  record Source(Instant eventTime, List<String> sourceIds) {}

  static Source source(Message m, Instant requestTimestamp) {
    Instant t = m.timestamp() != null ? m.timestamp() : requestTimestamp;
    return new Source(t, m.sourceId() == null ? List.of() : List.of(m.sourceId()));
  }
}
