package dev.engram.engine;

import dev.engram.Message;
import dev.engram.Role;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The source context of a new memory ({@link dev.engram.spi.StoredMemory#context}): the words of
 * the conversation it was drawn from, for keyword search beside its own text. A memory keeps a
 * fact; the messages around it keep what it answered ("What are your plans for the summer?" before
 * "Researching adoption agencies") and the rest of its message, which the fact's own words often
 * lack.
 *
 * <p>The context is the memory's source messages (the add's messages whose source id the memory
 * names; one stored verbatim as the memory's text is left out, it would only repeat it) and the
 * message before the first of them: the add's previous message, or the last message of the scope's
 * window when the first source message opens the add. A memory that names none of the add's
 * messages (no source ids, as from most API callers, or ids the add does not hold) gets the add's
 * messages and the window's last message: the exchange it came from; unless the add holds {@value
 * #MAX_MESSAGES} messages or more, where which of them it came from is unknown, and it gets none.
 * System messages are left out. A context holds at most {@value #MAX_MESSAGES} messages (the first
 * ones), each up to {@value #MAX_MESSAGE_CHARACTERS} characters.
 */
final class SourceContext {
  /** A longer message adds only its first this many characters. */
  static final int MAX_MESSAGE_CHARACTERS = 1_000;

  /**
   * At most this many messages make one context (the first ones: the previous message, then the
   * sources).
   */
  static final int MAX_MESSAGES = 8;

  private SourceContext() {}

  /**
   * The context of a memory with {@code sourceIds} and {@code memoryText}, drawn from {@code
   * messages} of its add, after the scope's {@code previous} message if the add had one before it.
   */
  static String of(
      List<Message> messages,
      Optional<Message> previous,
      List<String> sourceIds,
      String memoryText) {
    List<Message> said = new ArrayList<>();
    for (Message m : messages) {
      if (m.role() != Role.SYSTEM) {
        said.add(m);
      }
    }
    Set<String> wanted = new HashSet<>(sourceIds);
    int first = -1;
    List<Message> parts = new ArrayList<>();
    for (int i = 0; i < said.size(); i++) {
      if (said.get(i).sourceId() != null && wanted.contains(said.get(i).sourceId())) {
        if (first < 0) {
          first = i;
        }
        parts.add(said.get(i));
      }
    }
    if (first < 0) {
      if (said.size() >= MAX_MESSAGES) {
        return ""; // a long add without provenance: which of its messages the memory came from is
        // unknown
      }
      parts = said;
      first = 0;
    }
    List<Message> context = new ArrayList<>();
    if (first > 0) {
      context.add(said.get(first - 1));
    } else {
      previous.filter(m -> m.role() != Role.SYSTEM).ifPresent(context::add);
    }
    String own = memoryText.strip();
    for (Message m : parts) {
      if (!m.content().strip().equals(own)) {
        context.add(
            m); // a message stored verbatim as the memory adds nothing its text does not hold
      }
    }
    StringBuilder out = new StringBuilder();
    for (Message m : context.subList(0, Math.min(context.size(), MAX_MESSAGES))) {
      String text = m.content().strip();
      if (text.isEmpty()) {
        continue;
      }
      if (out.length() > 0) {
        out.append('\n');
      }
      int end = Math.min(text.length(), MAX_MESSAGE_CHARACTERS);
      if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
        end--; // never half a character
      }
      out.append(text, 0, end);
    }
    return out.toString();
  }
}
