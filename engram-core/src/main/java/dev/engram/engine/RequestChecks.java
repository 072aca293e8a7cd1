package dev.engram.engine;

import dev.engram.AddRequest;
import dev.engram.Message;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import java.util.List;
import java.util.Set;

/** Validation at the edge of the engine, before anything is embedded or written. */
final class RequestChecks {
  private static final Set<String> IDENTITY_KEYS =
      Set.of("user_id", "agent_id", "run_id", "actor_id");

  private RequestChecks() {}

  static void checkAdd(AddRequest r, int maxTextLength, int maxMessages) {
    List<Message> ms = r.messages();
    if (ms.size() > maxMessages) {
      throw new ValidationException(
          "messages", "has " + ms.size() + " messages; the limit per add is " + maxMessages);
    }
    for (int i = 0; i < ms.size(); i++) {
      checkText("messages[" + i + "].content", ms.get(i).content(), maxTextLength);
    }
    checkMetadata(r.metadata().keySet());
  }

  static void checkMetadata(Set<String> keys) {
    for (String k : keys) {
      if (IDENTITY_KEYS.contains(k)) {
        throw new ValidationException(
            "metadata." + k, "identity keys belong in the scope, not in metadata");
      }
    }
  }

  static String checkText(String field, String text, int maxTextLength) {
    if (text == null || text.isBlank()) {
      throw new ValidationException(field, "must not be empty");
    }
    if (text.length() > maxTextLength) {
      throw new TextTooLongException(field, text.length(), maxTextLength);
    }
    return text.trim();
  }

  static String checkId(String id) {
    if (id == null || id.isBlank()) {
      throw new ValidationException("memory_id", "must not be empty");
    }
    String t = id.trim();
    if (t.length() > 64) {
      throw new ValidationException(
          "memory_id", "'" + t.substring(0, 64) + "...' is too long for a memory id");
    }
    return t;
  }
}
