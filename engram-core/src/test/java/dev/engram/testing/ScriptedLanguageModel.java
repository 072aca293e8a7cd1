package dev.engram.testing;

import dev.engram.LanguageModelException;
import dev.engram.spi.LanguageModel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A scripted language model for tests (a fake: no model runs): each call takes the next scripted
 * step, which returns a recorded answer or throws a {@link LanguageModelException}. Records every
 * prompt. Thread-safe.
 */
public final class ScriptedLanguageModel implements LanguageModel {
  private final Deque<Function<Prompt, String>> steps = new ArrayDeque<>();
  private final List<Prompt> prompts = new ArrayList<>();
  private Function<Prompt, String> fallback;

  /** Answers the next call with {@code text}. */
  public synchronized ScriptedLanguageModel thenAnswer(String text) {
    steps.add(p -> text);
    return this;
  }

  /** Answers the next call by computing from its prompt. */
  public synchronized ScriptedLanguageModel thenAnswer(Function<Prompt, String> answer) {
    steps.add(answer);
    return this;
  }

  /** Fails the next call. */
  public synchronized ScriptedLanguageModel thenFail(LanguageModelException.Kind kind) {
    steps.add(
        p -> {
          throw new LanguageModelException(kind, "scripted " + kind);
        });
    return this;
  }

  /** Answers every call after the script with this function. */
  public synchronized ScriptedLanguageModel otherwise(Function<Prompt, String> answer) {
    this.fallback = answer;
    return this;
  }

  public synchronized List<Prompt> prompts() {
    return List.copyOf(prompts);
  }

  public synchronized int calls() {
    return prompts.size();
  }

  @Override
  public String modelId() {
    return "scripted";
  }

  @Override
  public Completion complete(Prompt prompt) {
    Function<Prompt, String> step;
    synchronized (this) {
      prompts.add(prompt);
      step = steps.isEmpty() ? fallback : steps.poll();
    }
    if (step == null) {
      throw new AssertionError("unscripted call to the language model: " + prompt.user());
    }
    String text = step.apply(prompt);
    // Token counts: a fixed, easily checked rule (one token per 4 characters, rounded up).
    return new Completion(
        text,
        (prompt.system().length() + prompt.user().length() + 3) / 4,
        (text.length() + 3) / 4,
        Duration.ofMillis(1));
  }
}
