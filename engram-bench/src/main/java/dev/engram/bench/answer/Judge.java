package dev.engram.bench.answer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.Usage;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The LLM-as-a-judge of the Mem0 paper (evaluation reference §3.1): labels a generated answer
 * CORRECT or WRONG against the gold answer, generously (same topic counts; for time questions the
 * same date or period in any format counts). The prompt is {@code judge.txt}; the model answers
 * {@code {"reasoning": ..., "label": ...}} at temperature 0; chatty text, code fences and think
 * blocks around the JSON are tolerated, the label is read case-insensitively, anything else is an
 * unusable answer (retried, then an error). Each judge run {@code r} is cached under its own key,
 * so R runs make R calls once and none on a rerun. Thread-safe; {@link #judge} blocks.
 */
public final class Judge {
  static final String SYSTEM = Texts.load("judge.txt");
  static final Map<String, Object> SCHEMA =
      Texts.stringObject(
          List.of("reasoning", "label"),
          Map.of("label", Map.of("type", "string", "enum", List.of("CORRECT", "WRONG"))));
  private static final int MAX_OUTPUT_TOKENS = 256;

  /**
   * One judgement.
   *
   * @param correct true for CORRECT
   * @param reasoning the judge's one-sentence reasoning (may be empty)
   */
  public record Verdict(boolean correct, String reasoning) {
    public Verdict {
      Objects.requireNonNull(reasoning, "reasoning");
    }
  }

  private final CachedJsonModel model;

  /** Over {@code model}; tests give one whose retries do not sleep. */
  Judge(CachedJsonModel model) {
    this.model = model;
  }

  /** A judge over {@code model}, caching in {@code cache}, retrying as {@code retry} says. */
  public static Judge create(LanguageModel model, ResponseCache cache, RetryPolicy retry) {
    return new Judge(CachedJsonModel.create(model, cache, retry));
  }

  /**
   * Judges {@code generated} against {@code gold} for {@code question}.
   *
   * @param run the judge run, from 0; each run is cached separately
   * @throws LanguageModelException if the model fails or keeps giving unusable answers; the message
   *     names the question and the run
   */
  public Verdict judge(String question, String gold, String generated, int run) {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(gold, "gold");
    Objects.requireNonNull(generated, "generated");
    if (run < 0) {
      throw new IllegalArgumentException("run must be at least 0, got " + run);
    }
    LanguageModel.Prompt prompt = prompt(question, gold, generated);
    String step = "judge run " + run + " for question " + Texts.quote(question);
    return model.ask(step, prompt, run, Judge::read);
  }

  /** Model calls made by this judge (cache hits are not counted). */
  public Usage usage() {
    return model.usage();
  }

  /** The model's id. */
  public String modelId() {
    return model.modelId();
  }

  static LanguageModel.Prompt prompt(String question, String gold, String generated) {
    String user =
        "Question: "
            + question.strip()
            + "\nGold answer: "
            + gold.strip()
            + "\nGenerated answer: "
            + generated.strip();
    return new LanguageModel.Prompt(SYSTEM, user, "judgement", SCHEMA, MAX_OUTPUT_TOKENS, 0.0);
  }

  /** Reads a judge's JSON object; a label other than CORRECT or WRONG is an unusable answer. */
  static Verdict read(JsonNode node, String step) {
    JsonNode label = node.get("label");
    String value =
        label != null && label.isTextual() ? label.asText().strip().toUpperCase(Locale.ROOT) : "";
    if (!value.equals("CORRECT") && !value.equals("WRONG")) {
      throw new LanguageModelException(
          LanguageModelException.Kind.INVALID_RESPONSE,
          step
              + ": \"label\" must be CORRECT or WRONG, got "
              + (label == null ? "nothing" : label.toString()));
    }
    JsonNode reasoning = node.path("reasoning");
    return new Verdict(
        value.equals("CORRECT"), reasoning.isValueNode() ? reasoning.asText().strip() : "");
  }
}
