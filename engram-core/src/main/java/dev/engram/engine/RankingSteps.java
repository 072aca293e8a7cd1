package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ordered registry of ranking steps: every step an engine can run, in the order a search runs
 * them (by phase, and within a phase in the order a step's changes must follow each other: the
 * context embeddings' list joins the fused ranking before the passages of long messages and the
 * facts drawn together are discounted and before the dates' list joins, the neighbours are lifted
 * behind the hits those lists made, the feedback list joins behind the hits it keeps in place, and
 * the instructions are lifted last, behind the best hit). A {@link Ranking} names the steps a
 * request runs; the order of its {@link Ranking#spec} is the order the steps were introduced in,
 * not this one. Adding a step is one class implementing {@link RankingStep} and one line here (or
 * {@link #with} for an engine of one's own). Immutable.
 */
final class RankingSteps {
  /** The standard steps, those {@link Ranking#STEPS} names, in the order they run. */
  static final RankingSteps STANDARD =
      new RankingSteps(
          List.of(
              new HubsStep(),
              new ContextStep(),
              MessageShareStep.passages(),
              MessageShareStep.facts(),
              new DatesStep(),
              new NeighboursStep(),
              new FeedbackStep(),
              new InstructionsStep(),
              new NamesStep(),
              new DiversityStep()));

  private final List<RankingStep> steps;

  private RankingSteps(List<RankingStep> steps) {
    Set<String> names = new HashSet<>();
    RankingStep.Phase phase = RankingStep.Phase.CANDIDATES;
    for (RankingStep s : steps) {
      if (!names.add(s.name())) {
        throw new IllegalArgumentException("two ranking steps named " + s.name());
      }
      if (s.phase().compareTo(phase) < 0) {
        throw new IllegalArgumentException(
            "ranking step "
                + s.name()
                + " of phase "
                + s.phase()
                + " listed after a step of phase "
                + phase);
      }
      phase = s.phase();
    }
    this.steps = List.copyOf(steps);
  }

  /**
   * These steps and {@code step}, which runs after those of its phase and before those of later
   * phases.
   */
  RankingSteps with(RankingStep step) {
    List<RankingStep> out = new ArrayList<>(steps);
    int at = 0;
    while (at < out.size() && out.get(at).phase().compareTo(step.phase()) <= 0) {
      at++;
    }
    out.add(at, step);
    return new RankingSteps(out);
  }

  /** The names of the steps, in the order they run. */
  List<String> names() {
    return steps.stream().map(RankingStep::name).toList();
  }

  /**
   * The steps {@code ranking} names, in the order they run.
   *
   * @throws ValidationException naming {@code ranking} if it names a step this registry does not
   *     hold
   */
  List<RankingStep> of(Ranking ranking) {
    List<RankingStep> out = new ArrayList<>(ranking.steps().size());
    for (RankingStep s : steps) {
      if (ranking.has(s.name())) {
        out.add(s);
      }
    }
    if (out.size() < ranking.steps().size()) {
      List<String> unknown = new ArrayList<>(ranking.steps());
      unknown.removeAll(names());
      throw new ValidationException(
          "ranking",
          "unknown ranking step '"
              + String.join("', '", unknown)
              + "'; known: "
              + String.join(", ", names()));
    }
    return out;
  }
}
