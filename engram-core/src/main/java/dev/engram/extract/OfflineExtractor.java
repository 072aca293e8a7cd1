package dev.engram.extract;

import dev.engram.Engram;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.spi.MemoryInference;
import dev.engram.text.CodeFences;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A deterministic, LLM-free {@link MemoryInference}: the extractor used when no language model is
 * configured. Each non-system message goes through these steps, in order:
 *
 * <ol>
 *   <li>typographic apostrophes are straightened and the text is split into sentences ({@code
 *       SentenceSplitter});
 *   <li>greetings, reactions, filler, questions and sentences with fewer than {@link
 *       Options#minContentWords()} content words are dropped ({@code FillerFilter}); a question
 *       that opens with a statement is kept, whole or as its statement ({@link Requests}: whole
 *       unless the engine gives memories context embeddings, which hold the whole message);
 *   <li>if the message has a speaker name ({@link Message#name()}; the role is not a name), the
 *       first person is rewritten to that name with verb agreement: "I adopted a puppy" by Caroline
 *       becomes "Caroline adopted a puppy", "I go" becomes "Caroline goes" ({@code
 *       PersonRewriter}); without a name the text is kept;
 *   <li>relative time expressions get their absolute UTC date from the message timestamp, or else
 *       the add's timestamp, the original wording kept: "yesterday (7 May 2023)", "last week (the
 *       week of 1 May 2023)" ({@code TimeResolver}); with neither timestamp they are left as they
 *       are.
 * </ol>
 *
 * A fenced code block ({@link CodeFences}) is read by lines, not sentences, each chosen as a
 * sentence is and kept as written: code is not cut at a {@code ?} or {@code !}, cleaned, rewritten
 * to the speaker nor dated ({@code def make_db_call():} stays so). In prose too, the first person
 * inside inline code and in names such as {@code my_app.py} or {@code my.cnf} is left as it is.
 *
 * <p>A message none of whose sentences is kept, but that says enough (at least {@link
 * Options#minContentWords()} + 1 content words, questions included: {@code "What if the webhook
 * fires twice during the deploy?"}), is kept as said, with its dates resolved, in passages of at
 * most the engine's passage limit ({@link InferenceContext#passageTokens()} tokens as its {@link
 * InferenceContext#tokenCounter()} counts them, the same limit at which the engine splits a long
 * message stored verbatim): in a chat with an assistant the user's questions are often what a later
 * question is about.
 *
 * <p>Every sentence that survives becomes one {@link MemoryInference.Add} with the speaker name as
 * actor, the message role, the message time as event time and the message source id as provenance,
 * unless it is a duplicate:
 *
 * <ul>
 *   <li>the same text earlier in the same add, or a near-duplicate of one, is skipped;
 *   <li>a memory of the scope with exactly this text ({@link ScopeMemories#withText}) gives a
 *       {@link Noop} for it;
 *   <li>among the {@link Options#similarCandidates()} memories that best match its words ({@link
 *       ScopeMemories#sharingWords}: a near-verbatim repeat shares nearly all of them, so no
 *       embedding is needed), the first whose normalised token Jaccard similarity ({@code
 *       TokenJaccard}) reaches {@link Options#nearDuplicateThreshold()} gives a {@link Noop} for
 *       it.
 * </ul>
 *
 * Each memory id appears in at most one NOOP of a plan.
 *
 * <p><b>This extractor only adds.</b> It never emits {@link Update} or {@link Delete}: it cannot
 * tell that a new fact contradicts or refines an old one, so a memory it wrote stays until the
 * caller changes or deletes it, and a changed fact ("moved to Shanghai") is stored beside the old
 * one ("lives in Beijing"). Use the LLM pipeline for consolidation.
 *
 * <p>Immutable and thread-safe; the same input always gives the same plan. It reads the scope only
 * through the context and calls no model.
 */
public final class OfflineExtractor implements MemoryInference {

  private final Options options;
  private final FillerFilter filter;

  private OfflineExtractor(Options options) {
    this.options = Objects.requireNonNull(options, "options");
    this.filter = new FillerFilter(options.minContentWords());
  }

  /** An extractor with {@link Options#defaults()}. */
  public static OfflineExtractor create() {
    return new OfflineExtractor(Options.defaults());
  }

  /** An extractor with the given options. */
  public static OfflineExtractor create(Options options) {
    return new OfflineExtractor(options);
  }

  /** The options this extractor runs with. */
  public Options options() {
    return options;
  }

  /**
   * How a sentence that states something and then asks for something is kept ({@code "I'm migrating
   * our Flask 2.3 app to FastAPI by next Friday, can you help me port the login routes?"}); a
   * sentence that opens with its question, or whose statement says too little, is dropped either
   * way.
   */
  public enum Requests {
    /**
     * The whole sentence, the request included: in a chat with an assistant what the user asks is
     * often what a later question is about, and without a context embedding ({@link
     * InferenceContext#contextEmbeddings()}) the fact's own text is all a search can find it by.
     */
    WHOLE,
    /**
     * The statement alone, ended by a full stop ({@code "User is migrating our Flask 2.3 app to
     * FastAPI by next Friday."}): shorter, so more facts fit a search's token budget, for memories
     * whose context embedding holds the whole message.
     */
    STATEMENT
  }

  /**
   * The facts of one message before deduplication, in order: its kept sentences, rewritten to the
   * speaker and with absolute dates, a request kept whole ({@link Requests#WHOLE}, as for an engine
   * without context embeddings); a message without a fact that is kept as said is split at the
   * engine's default passage limit ({@link Engram.Builder#DEFAULT_PASSAGE_TOKENS} cl100k tokens).
   * Empty for a system message.
   *
   * @param message the message
   * @param fallbackTimestamp the time to resolve dates against when the message has none, or null
   */
  public List<String> facts(Message message, Instant fallbackTimestamp) {
    return facts(
        message, fallbackTimestamp, Engram.Builder.DEFAULT_PASSAGE_TOKENS, TokenCounter.cl100k());
  }

  /**
   * The facts of one message as {@link #facts(Message, Instant)} gives them, a message kept as said
   * split into passages of at most {@code passageTokens} tokens as {@code counter} counts them.
   *
   * @param message the message
   * @param fallbackTimestamp the time to resolve dates against when the message has none, or null
   * @param passageTokens the most tokens of one passage of a message kept as said, at least 1
   * @param counter how those tokens are counted
   */
  public List<String> facts(
      Message message, Instant fallbackTimestamp, int passageTokens, TokenCounter counter) {
    return facts(message, fallbackTimestamp, passageTokens, counter, Requests.WHOLE);
  }

  /**
   * The facts of one message as {@link #facts(Message, Instant, int, TokenCounter)} gives them, a
   * request kept as {@code requests} says. A plan uses its context's settings: {@link
   * InferenceContext#passageTokens()}, {@link InferenceContext#tokenCounter()}, and {@link
   * Requests#STATEMENT} when its memories get context embeddings ({@link
   * InferenceContext#contextEmbeddings()}), else {@link Requests#WHOLE}.
   *
   * @param message the message
   * @param fallbackTimestamp the time to resolve dates against when the message has none, or null
   * @param passageTokens the most tokens of one passage of a message kept as said, at least 1
   * @param counter how those tokens are counted
   * @param requests how a sentence that states something and then asks for something is kept
   */
  public List<String> facts(
      Message message,
      Instant fallbackTimestamp,
      int passageTokens,
      TokenCounter counter,
      Requests requests) {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(counter, "counter");
    Objects.requireNonNull(requests, "requests");
    if (passageTokens < 1) {
      throw new ValidationException("passageTokens", "must be at least 1, was " + passageTokens);
    }
    if (message.role() == Role.SYSTEM) {
      return List.of();
    }
    Instant at = message.timestamp() != null ? message.timestamp() : fallbackTimestamp;
    String text = message.content().replace('\u2019', '\'');
    List<String> out = new ArrayList<>();
    for (CodeFences.Segment segment : CodeFences.segments(text)) {
      if (segment.code()) {
        segment
            .text()
            .lines()
            .map(String::strip)
            .filter(line -> filter.keep(line, requests).isPresent())
            .forEach(out::add);
        continue;
      }
      for (String sentence : SentenceSplitter.split(segment.text())) {
        Optional<String> kept = filter.keep(sentence, requests);
        if (kept.isPresent()) {
          out.add(
              TimeResolver.resolve(PersonRewriter.rewrite(kept.get(), message.name()), at).strip());
        }
      }
    }
    if (out.isEmpty() && filter.worthKeepingVerbatim(text)) {
      for (Passage passage : Passages.split(text, passageTokens, counter)) {
        out.add(TimeResolver.resolve(passage.text(), at));
      }
    }
    return out;
  }

  /** Its history rows name the pipeline {@value dev.engram.ChangePipelines#OFFLINE}. */
  @Override
  public String pipelineName() {
    return dev.engram.ChangePipelines.OFFLINE;
  }

  @Override
  public List<PlannedChange> plan(InferenceContext context) {
    Objects.requireNonNull(context, "context");
    List<PlannedChange> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    Set<String> noops = new HashSet<>();
    Requests requests = context.contextEmbeddings() ? Requests.STATEMENT : Requests.WHOLE;
    for (Message m : context.messages()) {
      Instant at = m.timestamp() != null ? m.timestamp() : context.timestamp();
      List<String> sources = m.sourceId() == null ? List.of() : List.of(m.sourceId());
      for (String fact :
          facts(
              m, context.timestamp(), context.passageTokens(), context.tokenCounter(), requests)) {
        if (isNear(fact, seen)) {
          continue;
        }
        seen.add(fact);
        Optional<String> existing = existingId(fact, context.memories());
        if (existing.isPresent()) {
          if (noops.add(existing.get())) {
            out.add(new Noop(existing.get()));
          }
        } else {
          out.add(new Add(fact, m.name(), m.role(), at, sources));
        }
      }
    }
    return out;
  }

  private boolean isNear(String fact, List<String> texts) {
    for (String t : texts) {
      if (t.equals(fact) || TokenJaccard.similarity(t, fact) >= options.nearDuplicateThreshold()) {
        return true;
      }
    }
    return false;
  }

  private Optional<String> existingId(String fact, ScopeMemories memories) {
    List<MemoryItem> same = memories.withText(fact);
    if (!same.isEmpty()) {
      return Optional.of(same.get(0).id());
    }
    if (options.similarCandidates() == 0) {
      return Optional.empty();
    }
    for (MemoryItem candidate : memories.sharingWords(fact, options.similarCandidates())) {
      if (TokenJaccard.similarity(candidate.text(), fact) >= options.nearDuplicateThreshold()) {
        return Optional.of(candidate.id());
      }
    }
    return Optional.empty();
  }

  /**
   * Settings of the offline extractor.
   *
   * @param minContentWords sentences with fewer content words are dropped (see {@code
   *     FillerFilter}); 0 or more, default 2 (3 dropped short statements that later questions ask
   *     about, "The store's doing great!", "I'm not giving up": docs/BENCHMARKS.md)
   * @param nearDuplicateThreshold token Jaccard similarity from which a text counts as a
   *     near-duplicate; in (0, 1], default 0.9 (1.0 means same tokens only)
   * @param similarCandidates how many similar memories to compare for near-duplicates; 0 turns the
   *     search off, at most 100, default 3
   */
  public record Options(int minContentWords, double nearDuplicateThreshold, int similarCandidates) {
    public Options {
      if (minContentWords < 0) {
        throw new ValidationException(
            "minContentWords", "must be 0 or more, was " + minContentWords);
      }
      if (!(nearDuplicateThreshold > 0.0 && nearDuplicateThreshold <= 1.0)) {
        throw new ValidationException(
            "nearDuplicateThreshold", "must be in (0, 1], was " + nearDuplicateThreshold);
      }
      if (similarCandidates < 0 || similarCandidates > 100) {
        throw new ValidationException(
            "similarCandidates", "must be in [0, 100], was " + similarCandidates);
      }
    }

    /** Two content words, Jaccard 0.9, three candidates. */
    public static Options defaults() {
      return new Options(2, 0.9, 3);
    }

    /** A copy with another minimum number of content words. */
    public Options withMinContentWords(int value) {
      return new Options(value, nearDuplicateThreshold, similarCandidates);
    }

    /** A copy with another near-duplicate threshold. */
    public Options withNearDuplicateThreshold(double value) {
      return new Options(minContentWords, value, similarCandidates);
    }

    /** A copy with another number of similar candidates. */
    public Options withSimilarCandidates(int value) {
      return new Options(minContentWords, nearDuplicateThreshold, value);
    }
  }
}
