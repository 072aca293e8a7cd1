package dev.engram.bench.answer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.Usage;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Generates a short answer to a LoCoMo question from the retrieved memories only, in the spirit of
 * the Mem0 harness's answer step (memories with their timestamps, relative dates resolved against
 * them, the most recent memory wins, a few words). The prompt is {@code answer.txt}; the model
 * answers {@code {"reasoning": ..., "answer": ...}} at temperature 0. Responses go through a {@link
 * ResponseCache} (run 0) and a {@link ModelCaller} (retries with backoff). Thread-safe; {@link
 * #answer} blocks on the model.
 */
public final class Answerer {
  static final String SYSTEM = Texts.load("answer.txt");
  static final Map<String, Object> SCHEMA =
      Texts.stringObject(List.of("reasoning", "answer"), Map.of());
  private static final int MAX_OUTPUT_TOKENS = 512;

  /**
   * A generated answer.
   *
   * @param text the short answer, scored against the gold answer
   * @param reasoning the model's reasoning before it (for inspection only)
   */
  public record Answer(String text, String reasoning) {
    public Answer {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(reasoning, "reasoning");
    }
  }

  private final CachedJsonModel model;

  /** Over {@code model}; tests give one whose retries do not sleep. */
  Answerer(CachedJsonModel model) {
    this.model = model;
  }

  /** An answerer over {@code model}, caching in {@code cache}, retrying as {@code retry} says. */
  public static Answerer create(LanguageModel model, ResponseCache cache, RetryPolicy retry) {
    return new Answerer(CachedJsonModel.create(model, cache, retry));
  }

  /**
   * Answers {@code question} from {@code memories} (in the order given, most relevant first).
   *
   * @throws LanguageModelException if the model fails or keeps giving unusable answers; the message
   *     names the question
   */
  public Answer answer(String question, List<RetrievedMemory> memories) {
    return answer(question, memories, List.of());
  }

  /**
   * Answers {@code question} from {@code memories} and the graph's {@code relations} (one line
   * each, most relevant first; an empty list gives exactly the prompt of {@link #answer(String,
   * List)}).
   *
   * @throws LanguageModelException if the model fails or keeps giving unusable answers; the message
   *     names the question
   */
  public Answer answer(String question, List<RetrievedMemory> memories, List<String> relations) {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(memories, "memories");
    Objects.requireNonNull(relations, "relations");
    LanguageModel.Prompt prompt = prompt(question, memories, relations);
    String step = "answer generation for question " + Texts.quote(question);
    return model.ask(step, prompt, 0, Answerer::read);
  }

  /** Model calls made by this answerer (cache hits cost nothing and are not counted). */
  public Usage usage() {
    return model.usage();
  }

  /** The model's id. */
  public String modelId() {
    return model.modelId();
  }

  static LanguageModel.Prompt prompt(String question, List<RetrievedMemory> memories) {
    return prompt(question, memories, List.of());
  }

  /**
   * The prompt: the memories, then (only if there are any) the relations under their own heading,
   * each line as given (the fact and, in brackets, when it held), then the question.
   */
  static LanguageModel.Prompt prompt(
      String question, List<RetrievedMemory> memories, List<String> relations) {
    StringBuilder user = new StringBuilder("Memories (most relevant first):\n");
    if (memories.isEmpty()) {
      user.append("(none)\n");
    }
    for (RetrievedMemory m : memories) {
      user.append(m.render()).append('\n');
    }
    if (!relations.isEmpty()) {
      user.append(
          "\nRelations from the memory graph (most relevant first; the brackets say when each held):\n");
      for (String r : relations) {
        user.append(relationLine(r)).append('\n');
      }
    }
    user.append("\nQuestion: ").append(question.strip());
    return new LanguageModel.Prompt(
        SYSTEM, user.toString(), "answer", SCHEMA, MAX_OUTPUT_TOKENS, 0.0);
  }

  /** A relation's prompt line: {@code - } and the line as given, on one line. */
  public static String relationLine(String relation) {
    return "- " + relation.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static Answer read(JsonNode node, String step) {
    JsonNode answer = node.get("answer");
    if (answer == null || !(answer.isTextual() || answer.isNumber()) || answer.asText().isBlank()) {
      throw new LanguageModelException(
          LanguageModelException.Kind.INVALID_RESPONSE,
          step + ": the answer object has no non-empty \"answer\" string: " + node);
    }
    JsonNode reasoning = node.path("reasoning");
    return new Answer(
        answer.asText().strip(), reasoning.isValueNode() ? reasoning.asText().strip() : "");
  }
}
