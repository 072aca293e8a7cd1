package dev.engram.bench.locomo;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The LoCoMo benchmark's data model (Maharana et al., ACL 2024), as read by {@link LocomoReader}.
 * Immutable.
 */
public final class Locomo {
  private Locomo() {}

  /** One dialogue turn. */
  public record Turn(String speaker, String diaId, String text) {
    public Turn {
      Objects.requireNonNull(speaker, "speaker");
      Objects.requireNonNull(diaId, "diaId");
      Objects.requireNonNull(text, "text");
    }
  }

  /** One session: its number, when it took place (UTC), and its turns in order. */
  public record Session(int number, Instant dateTime, List<Turn> turns) {
    public Session {
      turns = List.copyOf(turns);
    }
  }

  /**
   * A question with its gold answer, the dia_ids that support it, its category id (1..5), and, in a
   * BEAM file converted to LoCoMo's format, BEAM's own ability ({@code beam_type}, for example
   * {@code temporal_reasoning}), which the reports tally beside the category.
   */
  public record Question(
      String question,
      String answer,
      List<String> evidence,
      int category,
      Optional<String> beamType) {
    public Question {
      evidence = List.copyOf(evidence);
      Objects.requireNonNull(beamType, "beamType");
    }

    /** A LoCoMo question, without a BEAM type. */
    public Question(String question, String answer, List<String> evidence, int category) {
      this(question, answer, evidence, category, Optional.empty());
    }
  }

  /** An LLM-written fact about a speaker, with the dia_ids it came from. */
  public record Observation(int session, String speaker, String text, List<String> diaIds) {
    public Observation {
      diaIds = List.copyOf(diaIds);
    }
  }

  /** One conversation sample. */
  public record Conversation(
      String sampleId,
      String speakerA,
      String speakerB,
      List<Session> sessions,
      List<Question> questions,
      List<Observation> observations) {
    public Conversation {
      sessions = List.copyOf(sessions);
      questions = List.copyOf(questions);
      observations = List.copyOf(observations);
    }

    public int turnCount() {
      return sessions.stream().mapToInt(s -> s.turns().size()).sum();
    }

    /** The length in characters of the longest turn text (0 without turns). */
    public int longestTurnChars() {
      return sessions.stream()
          .flatMap(s -> s.turns().stream())
          .mapToInt(t -> t.text().length())
          .max()
          .orElse(0);
    }
  }

  /**
   * LoCoMo's category ids with their meaning in the original evaluation (Mem0's paper labels them
   * differently).
   */
  public static String categoryLabel(int category) {
    return switch (category) {
      case 1 -> "multi-hop";
      case 2 -> "temporal";
      case 3 -> "open-domain";
      case 4 -> "single-hop";
      case 5 -> "adversarial";
      default -> "unknown";
    };
  }
}
