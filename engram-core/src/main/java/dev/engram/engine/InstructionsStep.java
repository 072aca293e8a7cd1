package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.IndexField;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ranking step {@value Ranking#INSTRUCTIONS}: a standing instruction the user gave the
 * assistant, with the condition that says when it applies ("Always include version numbers when I
 * ask about software dependencies", "When I ask about probability, always give a worked example"),
 * is lifted behind the best hit of a query its condition's subject matches: a word of the subject
 * begins a word of the query, or a word of the query's content begins one of the subject
 * ("implementation details" and "how do I implement a login feature"). Such an instruction shares
 * little else with the questions it governs (they ask about the work, it says how to answer), so by
 * meaning or keywords it ranks far down (hundreds deep on BEAM), while the assistant needs it with
 * every such answer.
 *
 * <p>The instructions are found by their words: the scope's {@value #CANDIDATES} best memories by
 * keyword for "{@value #WORDS}", of which those worded as a conditional instruction count ({@link
 * #subject}). An instruction without a condition is not lifted: it would be lifted for every query,
 * and "always" opens advice as often as an instruction. Explain: the move in the fused ranking.
 */
final class InstructionsStep implements RankingStep {
  /** How many of the scope's memories, best by keyword, are read for instructions. */
  static final int CANDIDATES = 20;

  /**
   * A lifted instruction's fused score is the best hit's: it comes right after the best hit (the
   * fusion's tie-break orders the two), so a budget or a top-k of a few hits keeps it.
   */
  static final double BESIDE_THE_BEST = 1.0;

  /** The words an instruction with a condition holds, searched by keyword. */
  static final String WORDS = "always never whenever asks ask";

  private static final String ASKS =
      "(?:asks?|requests?|inquires?|wants?|needs?|talks?|writes?|mentions?)";

  /**
   * "Always (or never) do this when(ever) NAME asks about SUBJECT", the name being whatever the
   * memory calls the user ("I" as said, or the user's name once rewritten).
   */
  private static final Pattern THEN_CONDITION =
      Pattern.compile(
          "^(?:please\\s+)?(?:always|never|do not|don't)\\b[^.!?]*?\\bwhen(?:ever)?\\s+\\S+\\s+"
              + ASKS
              + "\\s+(?:\\S+\\s+)?(?:about|for|regarding|on|with)\\s+(?<subject>[^.!?;]+)",
          Pattern.CASE_INSENSITIVE);

  /** "When(ever) NAME asks about SUBJECT, always (or never) do this". */
  private static final Pattern CONDITION_FIRST =
      Pattern.compile(
          "^(?:when(?:ever)?|if)\\s+\\S+\\s+"
              + ASKS
              + "\\s+(?:\\S+\\s+)?(?:about|for|regarding|on|with)\\s+(?<subject>[^,.!?;]+),\\s*"
              + "(?:please\\s+)?(?:always|never|do not|don't)\\b",
          Pattern.CASE_INSENSITIVE);

  @Override
  public String name() {
    return Ranking.INSTRUCTIONS;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    if (fused.isEmpty()) {
      return fused;
    }
    List<Candidate> found =
        pass.engine.index.keyword(pass.query, IndexField.TEXT, WORDS, CANDIDATES);
    if (found.isEmpty()) {
      return fused;
    }
    String query = pass.request.query();
    String best = fused.get(0).id;
    Map<String, String> followed = new LinkedHashMap<>();
    for (StoredMemory m : pass.records.get(found.stream().map(Candidate::id).toList())) {
      Optional<String> subject = subject(m.item().text());
      if (subject.isPresent()
          && !m.id().equals(best)
          && matches(pass.analyzer, pass.contentWords, subject.get(), query)) {
        followed.put(m.id(), best);
      }
    }
    return followed.isEmpty() ? fused : RankFusion.lift(fused, followed, BESIDE_THE_BEST);
  }

  /**
   * The subject of the condition of a standing instruction ("software dependencies" in "Always
   * include version numbers when I ask about software dependencies."); empty if {@code text} is not
   * worded as an instruction with a condition.
   */
  static Optional<String> subject(String text) {
    String t = text.strip();
    Matcher m = THEN_CONDITION.matcher(t);
    if (m.find()) {
      return Optional.of(m.group("subject").strip());
    }
    m = CONDITION_FIRST.matcher(t);
    return m.find() ? Optional.of(m.group("subject").strip()) : Optional.empty();
  }

  /**
   * True if a content word of {@code subject} begins a word of the query, or one of the query's
   * content words ({@code queryWords}) begins a word of the subject, as stems ({@link
   * QueryAnalyzer#contentWords}).
   */
  static boolean matches(
      QueryAnalyzer analyzer, List<String> queryWords, String subject, String query) {
    return QueryAnalyzer.share(analyzer.contentWords(subject), query) > 0
        || QueryAnalyzer.share(queryWords, subject) > 0;
  }

  @Override
  public String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return "an instruction for what the query asks about: "
        + RankingStep.super.explainMove(rankBefore, rankAfter, before, after);
  }
}
