package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.LanguageModelException;
import dev.engram.bench.answer.EvaluationResult.Scores;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answer + judge runs over scripted (fake) models: J mean and deviation, F1, BLEU-1, caching,
 * threads, failures.
 */
class AnswerEvaluationTest {
  private static final Pattern QUESTION = Pattern.compile("Question: (.*)");
  private static final Pattern GOLD = Pattern.compile("Gold answer: (.*)");
  private static final Pattern GENERATED = Pattern.compile("Generated answer: (.*)");
  private static final RetrievedMemory MEMORY =
      new RetrievedMemory("moved to Paris", "Ana", Instant.parse("2023-05-08T13:56:00Z"));

  @TempDir Path dir;

  private static String field(Pattern p, LanguageModel.Prompt prompt) {
    Matcher m = p.matcher(prompt.user());
    if (!m.find()) {
      throw new AssertionError("no " + p + " in " + prompt.user());
    }
    return m.group(1);
  }

  private static AnswerEvaluation evaluation(
      LanguageModel answers, LanguageModel judge, ResponseCache cache, int threads, int runs) {
    return AnswerEvaluation.create(
        Answerer.create(answers, cache, RetryPolicy.none()),
        Judge.create(judge, cache, RetryPolicy.none()),
        threads,
        runs);
  }

  private static String answerJson(String answer) {
    return "{\"reasoning\": \"from the memories\", \"answer\": \"" + answer + "\"}";
  }

  @Test
  void scriptedLabelsGiveJMeanAndStandardDeviationOverRuns() {
    List<EvaluationItem> items =
        List.of(
            new EvaluationItem("c#1", "When did Ana move?", "7 May 2023", 1, List.of(MEMORY)),
            new EvaluationItem("c#2", "Where does Ana live?", "Paris", 2, List.of(MEMORY)));
    ScriptedLanguageModel answers =
        new ScriptedLanguageModel()
            .thenAnswer(answerJson("7 May 2023"))
            .thenAnswer(answerJson("In Paris, France"));
    // One thread: the judge is called for c#1 runs 0..3, then c#2 runs 0..3.
    ScriptedLanguageModel judge = new ScriptedLanguageModel();
    for (String label :
        List.of(
            "CORRECT", "CORRECT", "CORRECT", "CORRECT", "CORRECT", "WRONG", "CORRECT", "WRONG")) {
      judge.thenAnswer("{\"reasoning\": \"r\", \"label\": \"" + label + "\"}");
    }
    List<Integer> progress = new ArrayList<>();

    EvaluationResult result =
        evaluation(answers, judge, ResponseCache.inMemory(), 1, 4).run(items, progress::add);

    // J per run: run 0 both correct 100, run 1 one of two 50, run 2 100, run 3 50. Mean 75;
    // population deviation
    // sqrt((25² + 25² + 25² + 25²) / 4) = 25.
    // F1: c#1 exact, 1; c#2 {in,paris,france} vs {paris}: P = 1/3, R = 1, F1 = 2 * 1/3 / (4/3) =
    // 1/2. Mean 0.75.
    // BLEU-1: c#1 [7,may,2023] = gold, 1; c#2 [in,paris,",",france] vs [paris]: 1/4, c = 4 > r = 1,
    // BP = 1: 1/4.
    // Mean 0.625.
    assertThat(result.overall()).isEqualTo(new Scores(2, 75.0, 25.0, 75.0, 62.5));
    assertThat(result.byCategory()).containsOnlyKeys(1, 2);
    assertThat(result.byCategory().get(1)).isEqualTo(new Scores(1, 100.0, 0.0, 100.0, 100.0));
    // Category 2: J per run 100, 0, 100, 0: mean 50, deviation 50.
    assertThat(result.byCategory().get(2)).isEqualTo(new Scores(1, 50.0, 50.0, 50.0, 25.0));
    assertThat(result.items().get(1).labels()).containsExactly(true, false, true, false);
    assertThat(result.items().get(1).answer()).isEqualTo("In Paris, France");
    assertThat(result.judgeRuns()).isEqualTo(4);
    assertThat(result.answerUsage().llmCalls()).isEqualTo(2);
    assertThat(result.judgeUsage().llmCalls()).isEqualTo(8);
    assertThat(progress).containsExactly(1, 2);
  }

  /**
   * Answers echo the question number; the judge's label depends only on its prompt and how often it
   * was asked.
   */
  private static ScriptedLanguageModel promptDrivenAnswers() {
    return new ScriptedLanguageModel()
        .otherwise(
            p -> {
              String q = field(QUESTION, p);
              int n = Integer.parseInt(q.replaceAll("\\D", ""));
              return answerJson(
                  n % 3 == 0 ? "answer " + n : "answer " + n + " maybe " + (n * 7 % 5));
            });
  }

  private static ScriptedLanguageModel promptDrivenJudge() {
    Map<String, Integer> asked = new ConcurrentHashMap<>();
    return new ScriptedLanguageModel()
        .otherwise(
            p -> {
              int nth = asked.merge(p.user(), 1, Integer::sum);
              boolean exact = field(GOLD, p).equals(field(GENERATED, p));
              return "{\"label\": \"" + (exact || nth % 2 == 1 ? "CORRECT" : "WRONG") + "\"}";
            });
  }

  private static List<EvaluationItem> items(int n) {
    List<EvaluationItem> items = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      items.add(
          new EvaluationItem(
              "c#" + i, "Question number " + i + "?", "answer " + i, 1 + i % 4, List.of(MEMORY)));
    }
    return items;
  }

  @Test
  void scriptedResultsDoNotDependOnTheNumberOfThreads() {
    List<EvaluationItem> items = items(24);
    EvaluationResult serial =
        evaluation(promptDrivenAnswers(), promptDrivenJudge(), ResponseCache.inMemory(), 1, 3)
            .run(items, n -> {});
    List<Integer> progress = new ArrayList<>();
    EvaluationResult parallel =
        evaluation(promptDrivenAnswers(), promptDrivenJudge(), ResponseCache.inMemory(), 6, 3)
            .run(items, progress::add);

    assertThat(parallel.items()).isEqualTo(serial.items());
    assertThat(parallel.overall()).isEqualTo(serial.overall());
    assertThat(parallel.byCategory()).isEqualTo(serial.byCategory());
    assertThat(progress).hasSize(24).isSorted().startsWith(1).endsWith(24);
    // 8 of 24 answers are exact (every third), judged CORRECT in all 3 runs; the others CORRECT in
    // runs 0 and 2.
    // J per run: 100, 8/24 * 100, 100: mean 77.78, population deviation sqrt((2 * 22.22² + 44.44²)
    // / 3) = 31.43.
    assertThat(serial.overall().j()).isCloseTo(700.0 / 9, within(1e-9));
    assertThat(serial.overall().jStd())
        .isCloseTo(
            Math.sqrt((2 * Math.pow(200.0 / 9, 2) + Math.pow(400.0 / 9, 2)) / 3), within(1e-9));
  }

  @Test
  void scriptedRerunWithTheSameCacheFileMakesNoCalls() {
    Path file = dir.resolve("responses.jsonl");
    List<EvaluationItem> items = items(6);
    EvaluationResult first;
    try (ResponseCache cache = ResponseCache.open(file)) {
      first =
          evaluation(promptDrivenAnswers(), promptDrivenJudge(), cache, 2, 2).run(items, n -> {});
    }
    ScriptedLanguageModel answers = new ScriptedLanguageModel();
    ScriptedLanguageModel judge = new ScriptedLanguageModel();
    try (ResponseCache cache = ResponseCache.open(file)) {
      EvaluationResult again = evaluation(answers, judge, cache, 2, 2).run(items, n -> {});
      assertThat(again.items()).isEqualTo(first.items());
      assertThat(again.overall()).isEqualTo(first.overall());
      assertThat(again.answerUsage().llmCalls()).isZero();
      assertThat(again.judgeUsage().llmCalls()).isZero();
      assertThat(cache.hits()).isEqualTo(6 + 6 * 2);
    }
    assertThat(answers.calls()).isZero();
    assertThat(judge.calls()).isZero();

    // One more judge run: only the new run is asked, once per question.
    ScriptedLanguageModel thirdRun =
        new ScriptedLanguageModel().otherwise(p -> "{\"label\": \"WRONG\"}");
    try (ResponseCache cache = ResponseCache.open(file)) {
      EvaluationResult more = evaluation(answers, thirdRun, cache, 2, 3).run(items, n -> {});
      assertThat(more.items().get(0).labels()).hasSize(3).endsWith(false);
    }
    assertThat(answers.calls()).isZero();
    assertThat(thirdRun.calls()).isEqualTo(6);
  }

  @Test
  void scriptedFailureSurfacesAsTypedErrorNamingTheQuestion() {
    ScriptedLanguageModel answers =
        new ScriptedLanguageModel()
            .otherwise(
                p -> {
                  if (field(QUESTION, p).contains("number 5?")) {
                    throw new LanguageModelException(
                        LanguageModelException.Kind.BAD_REQUEST, "scripted rejection");
                  }
                  return answerJson("fine");
                });
    AnswerEvaluation evaluation =
        evaluation(answers, promptDrivenJudge(), ResponseCache.inMemory(), 3, 1);

    assertThatThrownBy(() -> evaluation.run(items(8), n -> {}))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.BAD_REQUEST))
        .hasMessageStartingWith("item c#5 (question 'Question number 5?'): ")
        .hasMessageContaining("scripted rejection");
  }

  @Test
  void emptyListScoresZeroAndArgumentsAreChecked() {
    Answerer answerer =
        Answerer.create(new ScriptedLanguageModel(), ResponseCache.inMemory(), RetryPolicy.none());
    Judge judge =
        Judge.create(new ScriptedLanguageModel(), ResponseCache.inMemory(), RetryPolicy.none());
    EvaluationResult empty = AnswerEvaluation.create(answerer, judge, 2, 3).run(List.of(), n -> {});
    assertThat(empty.overall()).isEqualTo(new Scores(0, 0, 0, 0, 0));
    assertThat(empty.byCategory()).isEmpty();
    assertThatThrownBy(() -> AnswerEvaluation.create(answerer, judge, 0, 1))
        .hasMessage("threads must be at least 1, got 0");
    assertThatThrownBy(() -> AnswerEvaluation.create(answerer, judge, 1, 0))
        .hasMessage("judgeRuns must be at least 1, got 0");
  }
}
