package dev.engram.bench.answer;

import java.util.List;
import java.util.Objects;

/**
 * One question to answer and judge. Immutable.
 *
 * @param id an identifier for reports and error messages (for example {@code conv-26#q12})
 * @param question the question
 * @param goldAnswer the gold answer as a string (LoCoMo's few integer answers converted with {@code
 *     String.valueOf})
 * @param category the LoCoMo category id (1 to 5)
 * @param memories the retrieved memories, most relevant first
 * @param relations the retrieved graph relations, most relevant first, one line each (see {@code
 *     dev.engram.bench.locomo.RelationLine}); empty without a graph memory
 */
public record EvaluationItem(
    String id,
    String question,
    String goldAnswer,
    int category,
    List<RetrievedMemory> memories,
    List<String> relations) {
  public EvaluationItem {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(goldAnswer, "goldAnswer");
    memories = List.copyOf(memories);
    relations = List.copyOf(relations);
  }

  /** An item without graph relations. */
  public EvaluationItem(
      String id, String question, String goldAnswer, int category, List<RetrievedMemory> memories) {
    this(id, question, goldAnswer, category, memories, List.of());
  }
}
