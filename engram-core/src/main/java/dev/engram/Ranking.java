package dev.engram;

/**
 * Ranking steps a search runs after fusing its dense and keyword candidates (and one, {@code names}, that may cut
 * the result), each on or off
 * ({@link SearchRequest.Builder#ranking}). None of them calls a model beyond the query embedding; each was kept in
 * or left out of {@link #DEFAULT} by its ablation on the LoCoMo sample (docs/BENCHMARKS.md, issue 14). Immutable.
 *
 * @param neighbours memories stated in the same source message as one of the best fused hits, or in an adjacent one
 *                   (the source id with its trailing number one less or one more: {@code D3:5} and {@code D3:4},
 *                   {@code <event>:2} and {@code <event>:3}), are lifted to at least half that hit's fused score:
 *                   an answer often spans consecutive turns
 * @param eventDates a query naming a period ("in May 2023", "on 13 October 2023", "in 2022", "in June", "last year",
 *                   "yesterday"; relative ones against the engine's clock) ranks the memories whose event time falls
 *                   in it higher
 * @param diversity  a memory all of whose source messages are already covered by better kept hits is kept only
 *                   after the memories that bring a new source message, so top-k or a budget covers more of the
 *                   conversation; the budget then holds fewer of a message's several memories, so fewer of the
 *                   answers' words: opt-in
 * @param feedback   pseudo-relevance feedback: the query's embedding moved towards the mean stored embedding of the
 *                   best fused hits searches the dense index once more, and its candidates join the ranking (no
 *                   further model call); the first 10 hits keep their places
 * @param context    the keyword (BM25) signal searches the memories' source contexts too (the messages each was
 *                   drawn from and the message before them), their words counting half as much as the memory's own:
 *                   a memory is found through the question it answered or the rest of its message
 * @param hubs       hubness reduction in the dense lists: a memory's similarity to the query is lowered by half the
 *                   mean similarity of its 30 nearest memories in the searched scope, so a "hub" (a generic remark
 *                   near many memories, which plain similarity puts near every query) gives way to a memory that is
 *                   specifically about the query (local scaling, as CSLS does for word translation)
 * @param names      a query that names someone or something (a capitalised word inside a sentence: "What did
 *                   <b>Caroline</b> say about <b>Paris</b>?"), none of whose names any memory within the search's
 *                   reach mentions (in its text, source context or speaker, or as the scope's user, agent or run
 *                   id), and that no memory matches closely (every own relevance under
 *                   {@link SearchRequest#SUGGESTED_THRESHOLD}), asks about what the store has never heard of: it
 *                   returns nothing, memories and relations alike, whatever the threshold; only where every memory
 *                   among the search's first candidates names its speaker
 */
public record Ranking(boolean neighbours, boolean eventDates, boolean diversity, boolean feedback, boolean context,
                      boolean hubs, boolean names) {
  /** The fusion's order only. */
  public static final Ranking NONE = new Ranking(false, false, false, false, false, false, false);
  /** Every step on. */
  public static final Ranking ALL = new Ranking(true, true, true, true, true, true, true);
  /**
   * What a request gets when it names none: dates, context, hubs and names, the steps that gained on the LoCoMo sample
   * without losing elsewhere. With the source context in the keyword signal, neighbours and feedback no longer gain at
   * 1,500 tokens and lose at 500 (docs/BENCHMARKS.md); diversity finds more evidence turns within a budget but fewer
   * of the answers' words. So those three are opt-in ({@code default,neighbours,feedback} brings back the earlier
   * default).
   */
  public static final Ranking DEFAULT = new Ranking(false, true, false, false, true, true, true);

  public Ranking withNeighbours(boolean value) {
    return new Ranking(value, eventDates, diversity, feedback, context, hubs, names);
  }

  public Ranking withEventDates(boolean value) {
    return new Ranking(neighbours, value, diversity, feedback, context, hubs, names);
  }

  public Ranking withDiversity(boolean value) {
    return new Ranking(neighbours, eventDates, value, feedback, context, hubs, names);
  }

  public Ranking withFeedback(boolean value) {
    return new Ranking(neighbours, eventDates, diversity, value, context, hubs, names);
  }

  public Ranking withContext(boolean value) {
    return new Ranking(neighbours, eventDates, diversity, feedback, value, hubs, names);
  }

  public Ranking withHubs(boolean value) {
    return new Ranking(neighbours, eventDates, diversity, feedback, context, value, names);
  }

  public Ranking withNames(boolean value) {
    return new Ranking(neighbours, eventDates, diversity, feedback, context, hubs, value);
  }

  /**
   * This ranking as {@link #parse} reads it: the names of its steps, comma-separated, in the order neighbours, dates,
   * diversity, feedback, context, hubs, names, or {@code none}; {@code parse(r.spec(), f)} equals {@code r}.
   */
  public String spec() {
    java.util.List<String> on = new java.util.ArrayList<>();
    if (neighbours) {
      on.add("neighbours");
    }
    if (eventDates) {
      on.add("dates");
    }
    if (diversity) {
      on.add("diversity");
    }
    if (feedback) {
      on.add("feedback");
    }
    if (context) {
      on.add("context");
    }
    if (hubs) {
      on.add("hubs");
    }
    if (names) {
      on.add("names");
    }
    return on.isEmpty() ? "none" : String.join(",", on);
  }

  /**
   * Parses a comma-separated list of step names ({@code neighbours}, {@code dates}, {@code diversity},
   * {@code feedback}, {@code context}, {@code hubs}, {@code names}) and the sets {@code none}, {@code all} and
   * {@code default}, joined: {@code default,feedback} is the default steps plus feedback.
   *
   * @throws ValidationException naming {@code field} for an unknown name
   */
  public static Ranking parse(String spec, String field) {
    Ranking r = NONE;
    for (String part : spec.split(",", -1)) {
      switch (part.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "", "none" -> { }
        case "all" -> r = ALL;
        case "default" -> r = new Ranking(r.neighbours || DEFAULT.neighbours, r.eventDates || DEFAULT.eventDates,
            r.diversity || DEFAULT.diversity, r.feedback || DEFAULT.feedback, r.context || DEFAULT.context,
            r.hubs || DEFAULT.hubs, r.names || DEFAULT.names);
        case "neighbours", "neighbors" -> r = r.withNeighbours(true);
        case "dates" -> r = r.withEventDates(true);
        case "diversity" -> r = r.withDiversity(true);
        case "feedback" -> r = r.withFeedback(true);
        case "context" -> r = r.withContext(true);
        case "hubs" -> r = r.withHubs(true);
        case "names" -> r = r.withNames(true);
        default -> throw new ValidationException(field, "unknown ranking step '" + part.trim()
            + "'; known: neighbours, dates, diversity, feedback, context, hubs, names, none, all,"
            + " default");
      }
    }
    return r;
  }
}
