package dev.engram;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The ranking steps a search runs around the fusion of its dense and keyword candidates, as a set
 * of step names ({@link SearchRequest.Builder#ranking}). None of them calls a model beyond the
 * query embedding; each was kept in or left out of {@link #DEFAULT} by its ablation on the LoCoMo
 * sample (docs/BENCHMARKS.md, issue 14). The engine holds the steps themselves, in the order they
 * run; a ranking only names them. The standard steps ({@link #STEPS}):
 *
 * <ul>
 *   <li>{@value #NEIGHBOURS}: memories stated in the same source message as one of the best fused
 *       hits, or said right before or after it (its place in the conversation is its event time,
 *       then its creation time: the provenance every source gives, whatever its message ids look
 *       like), are lifted to at least half that hit's fused score: an answer often spans
 *       consecutive turns
 *   <li>{@value #DATES}: a query naming a period ("in May 2023", "on 13 October 2023", "in 2022",
 *       "in June", "last year", "yesterday"; relative ones against the engine's clock) ranks the
 *       memories whose event time falls in it higher
 *   <li>{@value #DIVERSITY}: a memory all of whose source messages are already covered by better
 *       kept hits is kept only after the memories that bring a new source message, so top-k or a
 *       budget covers more of the conversation; the budget then holds fewer of a message's several
 *       memories, so fewer of the answers' words: opt-in
 *   <li>{@value #FEEDBACK}: pseudo-relevance feedback: the query's embedding moved towards the mean
 *       stored embedding of the best fused hits searches the dense index once more, and its
 *       candidates join the ranking (no further model call); the first 10 hits keep their places
 *   <li>{@value #CONTEXT}: the keyword (BM25) signal searches the memories' source contexts too
 *       (the messages each was drawn from and the message before them), their words counting half
 *       as much as the memory's own: a memory is found through the question it answered or the rest
 *       of its message
 *   <li>{@value #HUBS}: hubness reduction in the dense lists: a memory's similarity to the query is
 *       lowered by half the mean similarity of its 30 nearest memories in the searched scope, so a
 *       "hub" (a generic remark near many memories, which plain similarity puts near every query)
 *       gives way to a memory that is specifically about the query (local scaling, as CSLS does for
 *       word translation); under {@link Fusion#COSINE}, which scores by cosine and not by rank,
 *       only the lists that fuse by rank (context embeddings, the graph's relations)
 *   <li>{@value #NAMES}: the off-topic cut. A query that nothing in the store is likely about (the
 *       best calibrated relevance among the search's first candidates is under {@link
 *       SearchRequest#OFF_TOPIC_CUT}, where the embedder ships a fitted map) returns nothing; so
 *       does, with a fitted map and at least 100 memories in reach, a query that no memory matches
 *       closely (best relevance under 0.7) whose words, weighted by their rarity in the reach (a
 *       word most memories hold weighs about nothing, one none holds the most), the reach mostly
 *       does not hold (under 0.75 of the weight), unless it names someone or something the reach
 *       knows (its memories may answer it in other words); and so does a query that names someone
 *       or something (a capitalised word inside a sentence: "What did <b>Caroline</b> say about
 *       <b>Paris</b>?"), none of whose names any memory within the search's reach mentions (in its
 *       text, source context or speaker, or as the scope's user, agent or run id), and that no
 *       memory matches closely (every own relevance under 0.7), asks about what the store has never
 *       heard of: it returns nothing, memories and relations alike, whatever the threshold; only
 *       where every memory among the search's first candidates names its speaker
 *   <li>{@value #PASSAGES}: a passage of a message split into n passages ({@link
 *       MemoryItem#PASSAGE_COUNT}) gives up {@code 0.08 * ln(n)} of its fused score: each passage
 *       of a long message is another chance to match a query by accident (the best of n similar
 *       draws grows with n), so without it long messages, an assistant's answers above all, crowd
 *       out the short turns that state what was asked about. Under {@link Fusion#COSINE} only (the
 *       default without context embeddings): the discount is in a cosine's units. Memories without
 *       a passage count (whole messages, extracted facts, passages stored before it, or exported
 *       from such a store) keep their score
 *   <li>{@value #FACTS}: the same for one of n facts an add drew from the same messages ({@link
 *       MemoryItem#FACT_COUNT}), at {@code 0.04 * ln(n)}: an assistant's long answer yields many
 *       facts, each another chance to match by accident
 *   <li>{@value #INSTRUCTIONS}: a standing instruction the user gave the assistant with the
 *       condition that says when it applies ("Always include version numbers when I ask about
 *       software dependencies") is lifted behind the best hit of a query whose words meet the
 *       condition's subject ("Which libraries does this project use?"): such an instruction shares
 *       little else with the questions it governs, so it ranks far down by meaning and by keywords
 * </ul>
 *
 * <p>Immutable; equal when they name the same steps.
 */
public final class Ranking {
  public static final String NEIGHBOURS = "neighbours";
  public static final String DATES = "dates";
  public static final String DIVERSITY = "diversity";
  public static final String FEEDBACK = "feedback";
  public static final String CONTEXT = "context";
  public static final String HUBS = "hubs";
  public static final String NAMES = "names";
  public static final String PASSAGES = "passages";
  public static final String FACTS = "facts";
  public static final String INSTRUCTIONS = "instructions";

  /**
   * The names of the standard steps in the order a {@link #spec} lists them (the order they were
   * introduced in, not the order they run in), the names {@link #parse} knows.
   */
  public static final List<String> STEPS =
      List.of(
          NEIGHBOURS,
          DATES,
          DIVERSITY,
          FEEDBACK,
          CONTEXT,
          HUBS,
          NAMES,
          PASSAGES,
          FACTS,
          INSTRUCTIONS);

  private static final Pattern STEP_NAME = Pattern.compile("[a-z][a-z0-9-]*");

  /** The fusion's order only. */
  public static final Ranking NONE = new Ranking(List.of());

  /** Every standard step on. */
  public static final Ranking ALL = new Ranking(STEPS);

  /**
   * What a request gets when it names none: dates, context, hubs, names, passages, facts and
   * instructions, the steps that gained on the LoCoMo sample without losing elsewhere (passages
   * acts only on messages split into passages, which LoCoMo's short turns never are, and gains on
   * the BEAM sample; facts gains at top-10 on both and at 500 tokens on BEAM, for 0.005-0.010 at
   * 1,500; instructions gains on BEAM at every budget and does nothing on LoCoMo, whose chats give
   * no instructions). With the source context in the keyword signal, neighbours and feedback no
   * longer gain at 1,500 tokens and lose at 500 (docs/BENCHMARKS.md); diversity finds more evidence
   * turns within a budget but fewer of the answers' words. So those three are opt-in ({@code
   * default,neighbours,feedback} brings back the earlier default).
   */
  public static final Ranking DEFAULT =
      new Ranking(List.of(DATES, CONTEXT, HUBS, NAMES, PASSAGES, FACTS, INSTRUCTIONS));

  /**
   * The names, the standard ones in the order of {@link #STEPS}, then any others in alphabetical
   * order.
   */
  private final List<String> steps;

  private Ranking(Collection<String> names) {
    Set<String> others = new TreeSet<>(names);
    List<String> ordered = new ArrayList<>(names.size());
    for (String s : STEPS) {
      if (others.remove(s)) {
        ordered.add(s);
      }
    }
    ordered.addAll(others);
    this.steps = List.copyOf(ordered);
  }

  /**
   * The ranking of the named steps. A name outside {@link #STEPS} is accepted if it is a step name
   * (lower-case letters, digits and hyphens), for an engine that holds more steps; a search with an
   * engine that does not know it fails with a {@link ValidationException} naming {@code ranking}.
   *
   * @throws ValidationException for a name that is not a step name
   */
  public static Ranking of(Collection<String> steps) {
    for (String s : steps) {
      checkName(s);
    }
    return new Ranking(steps);
  }

  /** {@link #of(Collection)} of the given names. */
  public static Ranking of(String... steps) {
    return of(List.of(steps));
  }

  private static void checkName(String step) {
    if (step == null || !STEP_NAME.matcher(step).matches()) {
      throw new ValidationException("ranking", "not a ranking step name: '" + step + "'");
    }
  }

  /**
   * The names of the steps, the standard ones in the order of {@link #STEPS}, then any others
   * alphabetically.
   */
  public List<String> steps() {
    return steps;
  }

  /** True if this ranking runs the named step. */
  public boolean has(String step) {
    return steps.contains(step);
  }

  /** This ranking with the named step on or off. */
  public Ranking with(String step, boolean on) {
    checkName(step);
    if (has(step) == on) {
      return this;
    }
    List<String> names = new ArrayList<>(steps);
    if (on) {
      names.add(step);
    } else {
      names.remove(step);
    }
    return new Ranking(names);
  }

  /** This ranking with the named step on. */
  public Ranking with(String step) {
    return with(step, true);
  }

  /** True if the step {@value #NEIGHBOURS} is on. */
  public boolean neighbours() {
    return has(NEIGHBOURS);
  }

  /** True if the step {@value #DATES} is on. */
  public boolean eventDates() {
    return has(DATES);
  }

  /** True if the step {@value #DIVERSITY} is on. */
  public boolean diversity() {
    return has(DIVERSITY);
  }

  /** True if the step {@value #FEEDBACK} is on. */
  public boolean feedback() {
    return has(FEEDBACK);
  }

  /** True if the step {@value #CONTEXT} is on. */
  public boolean context() {
    return has(CONTEXT);
  }

  /** True if the step {@value #HUBS} is on. */
  public boolean hubs() {
    return has(HUBS);
  }

  /** True if the step {@value #NAMES} is on. */
  public boolean names() {
    return has(NAMES);
  }

  /** True if the step {@value #PASSAGES} is on. */
  public boolean passages() {
    return has(PASSAGES);
  }

  /** True if the step {@value #FACTS} is on. */
  public boolean facts() {
    return has(FACTS);
  }

  public Ranking withNeighbours(boolean value) {
    return with(NEIGHBOURS, value);
  }

  public Ranking withEventDates(boolean value) {
    return with(DATES, value);
  }

  public Ranking withDiversity(boolean value) {
    return with(DIVERSITY, value);
  }

  public Ranking withFeedback(boolean value) {
    return with(FEEDBACK, value);
  }

  public Ranking withContext(boolean value) {
    return with(CONTEXT, value);
  }

  public Ranking withHubs(boolean value) {
    return with(HUBS, value);
  }

  public Ranking withNames(boolean value) {
    return with(NAMES, value);
  }

  public Ranking withPassages(boolean value) {
    return with(PASSAGES, value);
  }

  public Ranking withFacts(boolean value) {
    return with(FACTS, value);
  }

  /**
   * This ranking as {@link #parse} reads it: the names of its steps, comma-separated, in the order
   * of {@link #STEPS} (neighbours, dates, diversity, feedback, context, hubs, names, passages,
   * facts), or {@code none}; {@code parse(r.spec(), f)} equals {@code r} for a ranking of standard
   * steps.
   */
  public String spec() {
    return steps.isEmpty() ? "none" : String.join(",", steps);
  }

  /**
   * Parses a comma-separated list of step names ({@code neighbours}, {@code dates}, {@code
   * diversity}, {@code feedback}, {@code context}, {@code hubs}, {@code names}, {@code passages},
   * {@code facts}) and the sets {@code none}, {@code all} and {@code default}, joined: {@code
   * default,feedback} is the default steps plus feedback.
   *
   * @throws ValidationException naming {@code field} for an unknown name
   */
  public static Ranking parse(String spec, String field) {
    List<String> names = new ArrayList<>();
    for (String part : spec.split(",", -1)) {
      String name = part.trim().toLowerCase(Locale.ROOT);
      switch (name) {
        case "", "none" -> {}
        case "all" -> names.addAll(ALL.steps);
        case "default" -> names.addAll(DEFAULT.steps);
        case "neighbors" -> names.add(NEIGHBOURS);
        default -> {
          if (!STEPS.contains(name)) {
            throw new ValidationException(
                field,
                "unknown ranking step '"
                    + part.trim()
                    + "'; known: "
                    + String.join(", ", STEPS)
                    + ", none, all, default");
          }
          names.add(name);
        }
      }
    }
    return new Ranking(names);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ranking r && r.steps.equals(steps);
  }

  @Override
  public int hashCode() {
    return steps.hashCode();
  }

  @Override
  public String toString() {
    return "Ranking[" + spec() + "]";
  }
}
