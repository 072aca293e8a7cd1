package dev.engram.bench.locomo;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The LoCoMo benchmark's data model (Maharana et al., ACL 2024), as read by {@link LocomoReader}. Immutable.
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

  /** A question with its gold answer, the dia_ids that support it, and its category id (1..5). */
  public record Question(String question, String answer, List<String> evidence, int category) {
    public Question {
      evidence = List.copyOf(evidence);
    }
  }

  /** An LLM-written fact about a speaker, with the dia_ids it came from. */
  public record Observation(int session, String speaker, String text, List<String> diaIds) {
    public Observation {
      diaIds = List.copyOf(diaIds);
    }
  }

  /** One conversation sample. */
  public record Conversation(String sampleId, String speakerA, String speakerB, List<Session> sessions,
                             List<Question> questions, List<Observation> observations) {
    public Conversation {
      sessions = List.copyOf(sessions);
      questions = List.copyOf(questions);
      observations = List.copyOf(observations);
    }

    public int turnCount() {
      return sessions.stream().mapToInt(s -> s.turns().size()).sum();
    }
  }

  /** LoCoMo's category ids with their meaning in the original evaluation (Mem0's paper labels them differently). */
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
