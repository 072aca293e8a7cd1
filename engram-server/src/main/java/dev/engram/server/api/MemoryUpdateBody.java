package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.MemoryUpdate;
import dev.engram.ValidationException;
import dev.engram.server.http.Fields;

/**
 * An update body: {@code text} (or mem0's deprecated {@code data}), {@code metadata}, {@code
 * expiration_date} ({@code null} clears it); at least one. mem0's {@code timestamp} is refused:
 * Engram does not rewrite when a memory was stored.
 */
final class MemoryUpdateBody {
  private MemoryUpdateBody() {}

  static MemoryUpdate parse(JsonNode body) {
    if (body.hasNonNull("timestamp")) {
      throw new ValidationException(
          "timestamp",
          "is not supported on update: Engram does not rewrite when a memory" + " was stated");
    }
    MemoryUpdate u = null;
    var text = Fields.text(body, "text").or(() -> Fields.text(body, "data"));
    if (text.isPresent()) {
      u = MemoryUpdate.text(text.get());
    }
    var metadata = Fields.map(body, "metadata");
    if (metadata.isPresent()) {
      u = u == null ? MemoryUpdate.metadata(metadata.get()) : u.withMetadata(metadata.get());
    }
    if (body.has("expiration_date")) {
      var date = Fields.date(body, "expiration_date").orElse(null);
      u = u == null ? MemoryUpdate.expiration(date) : u.withExpiration(date);
    }
    if (u == null) {
      throw new ValidationException("text", "an update needs text, metadata or expiration_date");
    }
    return u;
  }
}
