package dev.engram.engine;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.text.Passage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 *
 * <p>A source message longer than the context passage limit ({@link
 * dev.engram.Engram.Builder#contextPassageTokens}) gives only the passage that holds the memory:
 * the one its text is in, else the one that shares most of its words. So a memory from the end of a
 * long message has the words around it as its context, not the message's opening; and a memory that
 * is itself a passage adds none of it. When the memory's first source message is long, the message
 * before is left out too: it is about the long message as a whole, not about the passage that holds
 * the memory. A passage of a long message stored verbatim (split at {@link
 * dev.engram.Engram.Builder#passageTokens}) is not drawn a context at all by the add path (and,
 * with context embeddings, has no context embedding). Given to every passage of an assistant's long
 * answer, the user's question before it lifted them all above the user's turn that held the fact:
 * on the BEAM sample, raw turns found less evidence with the {@code context} ranking step than
 * without it; left out for the first passage too, they find 0.045 more at 500 tokens and 0.021 more
 * at top-10 than with it left out for later passages only (docs/benchmarks/log.md, "Source context
 * of later passages").
 */
final class SourceContext {
  /** A longer message adds only its first this many characters. */
  static final int MAX_MESSAGE_CHARACTERS = 1_000;

  /**
   * At most this many messages make one context (the first ones: the previous message, then the
   * sources).
   */
  static final int MAX_MESSAGES = 8;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]{3,}");

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
    return of(messages, previous, sourceIds, memoryText, text -> List.of());
  }

  /**
   * The context as {@link #of(List, Optional, List, String)} draws it, with a long source message's
   * holding passage in its place: {@code passagesOf} gives a message content's passages, none for a
   * content within the passage limit.
   */
  static String of(
      List<Message> messages,
      Optional<Message> previous,
      List<String> sourceIds,
      String memoryText,
      Function<String, List<Passage>> passagesOf) {
    return draw(messages, previous, sourceIds, memoryText, passagesOf).context();
  }

  /**
   * A memory's context, and the passage of a long source message that holds it, if it came from one
   * (and is not that passage itself).
   *
   * @param context the context text ({@link #of(List, Optional, List, String, Function)})
   * @param passage the holding passage's text, empty if no source message was long
   */
  record Drawn(String context, Optional<String> passage) {}

  /**
   * The context as {@link #of(List, Optional, List, String, Function)} draws it, with its passage.
   */
  static Drawn draw(
      List<Message> messages,
      Optional<Message> previous,
      List<String> sourceIds,
      String memoryText,
      Function<String, List<Passage>> passagesOf) {
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
    boolean named = first >= 0;
    if (first < 0) {
      if (said.size() >= MAX_MESSAGES) {
        return new Drawn(
            "",
            Optional
                .empty()); // a long add without provenance: which of its messages the memory came
        // from is
        // unknown
      }
      parts = said;
      first = 0;
    }
    List<String> context = new ArrayList<>();
    String own = memoryText.strip();
    if (!named || followsTheMessageBefore(parts.get(0), passagesOf)) {
      if (first > 0) {
        context.add(said.get(first - 1).content());
      } else {
        previous.filter(m -> m.role() != Role.SYSTEM).ifPresent(m -> context.add(m.content()));
      }
    }
    Optional<String> holdingPassage = Optional.empty();
    for (Message m : parts) {
      List<Passage> passages = passagesOf.apply(m.content());
      String part = passages.isEmpty() ? m.content() : holding(passages, m.content(), own).text();
      if (!passages.isEmpty() && holdingPassage.isEmpty() && !part.equals(own)) {
        holdingPassage = Optional.of(part);
      }
      if (!part.strip().equals(own)) {
        context.add(
            part); // a message stored verbatim as the memory adds nothing its text does not hold
      }
    }
    StringBuilder out = new StringBuilder();
    for (String piece : context.subList(0, Math.min(context.size(), MAX_MESSAGES))) {
      String text = piece.strip();
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
    return new Drawn(out.toString(), holdingPassage);
  }

  /**
   * Whether the message before {@code source} is before a memory drawn from it: a message within
   * the passage limit, whose whole the message before answers or prompts; not a long one.
   */
  private static boolean followsTheMessageBefore(
      Message source, Function<String, List<Passage>> passagesOf) {
    return passagesOf.apply(source.content()).isEmpty();
  }

  /**
   * The passage that holds {@code memoryText}: the one it is found in, else the first of those that
   * share most of its words (of three letters or more, ignoring case).
   */
  static Passage holding(List<Passage> passages, String content, String memoryText) {
    int at = memoryText.isEmpty() ? -1 : content.indexOf(memoryText);
    if (at >= 0) {
      for (Passage p : passages) {
        if (at < p.end()) {
          return p;
        }
      }
    }
    Set<String> words = words(memoryText);
    Passage best = passages.get(0);
    long bestShared = -1;
    for (Passage p : passages) {
      Set<String> own = words(p.text());
      long shared = words.stream().filter(own::contains).count();
      if (shared > bestShared) {
        best = p;
        bestShared = shared;
      }
    }
    return best;
  }

  private static Set<String> words(String text) {
    Set<String> words = new HashSet<>();
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      words.add(m.group());
    }
    return words;
  }
}
