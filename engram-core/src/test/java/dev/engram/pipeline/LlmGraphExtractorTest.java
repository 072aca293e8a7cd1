package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.LanguageModelException;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.UsageMeter;
import dev.engram.testing.ScriptedLanguageModel;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The LLM graph extractor against a scripted model (a fake: no LLM runs here). */
class LlmGraphExtractorTest {
  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private final LlmGraphExtractor extractor =
      new LlmGraphExtractor(new ModelCaller(model, RetryPolicy.defaults(), d -> {}), 500);

  private GraphExtractor.Extraction extract(String answer) {
    model.thenAnswer(answer);
    return extractor.extract(
        new GraphExtractor.Input(
            Scope.user("u"),
            List.of(
                new Message(
                    Role.USER,
                    "I moved to Shanghai last month",
                    "Alice",
                    Instant.parse("2023-07-03T10:00:00Z"),
                    "m1")),
            Instant.parse("2023-07-03T10:00:00Z"),
            List.of(),
            new UsageMeter()));
  }

  @Test
  void readsEntitiesRelationsAndDatesAndSkipsMalformedItems() {
    GraphExtractor.Extraction ex =
        extract(
            "```json\n{\"entities\": [{\"name\": \"Alice\", \"type\": \"Person\"},"
                + " {\"entity\": \"Shanghai\", \"entity_type\": \"city\"}, {\"name\": \" \"}], \"relations\": ["
                + "{\"source\": \"Alice\", \"relationship\": \"lives_in\", \"destination\": \"Shanghai\", \"fact\":"
                + " \"Alice lives in Shanghai\", \"valid_at\": \"2023-06-01\", \"invalid_at\": null},"
                + "{\"source\": \"Alice\", \"relation\": \"visited\", \"target\": \"Paris\", \"valid_at\":"
                + " \"2022-05-01T08:00:00+02:00\", \"invalid_at\": \"someday\"},"
                + "{\"source\": \"\", \"relationship\": \"x\", \"destination\": \"y\"}]}\n```");
    assertThat(ex.entities())
        .extracting(GraphExtractor.ExtractedEntity::name, GraphExtractor.ExtractedEntity::type)
        .containsExactly(tuple("Alice", "person"), tuple("Shanghai", "city"));
    assertThat(ex.relations())
        .extracting(
            GraphExtractor.ExtractedRelation::relation,
            GraphExtractor.ExtractedRelation::fact,
            GraphExtractor.ExtractedRelation::validAt,
            GraphExtractor.ExtractedRelation::invalidAt)
        .containsExactly(
            tuple(
                "lives_in", "Alice lives in Shanghai", Instant.parse("2023-06-01T00:00:00Z"), null),
            tuple("visited", "Alice visited Paris", Instant.parse("2022-05-01T06:00:00Z"), null));
    assertThat(model.prompts().get(0).user())
        .startsWith("Message time: 2023-07-03T10:00:00Z\nNew messages:\n");
    assertThat(model.prompts().get(0).user())
        .contains("Alice (user): I moved to Shanghai last month");
  }

  @Test
  void aWrongShapeIsRetriedThenFails() {
    model.thenAnswer("{\"facts\": []}").thenAnswer("{\"facts\": []}").thenAnswer("{\"facts\": []}");
    assertThatThrownBy(
            () ->
                extractor.extract(
                    new GraphExtractor.Input(
                        Scope.user("u"),
                        List.of(Message.user("hi")),
                        null,
                        List.of(),
                        new UsageMeter())))
        .isInstanceOf(LanguageModelException.class)
        .hasMessageContaining("graph extraction");
  }

  @Test
  void verdictsMapShownNumbersBackToIdsAndIgnoreInventedOnes() {
    model.thenAnswer(
        "{\"verdicts\": [{\"new\": 0, \"contradicted\": [2, 7], \"duplicates\": [1]},"
            + " {\"new\": \"x\"}, {\"new\": 1, \"contradicted\": [], \"duplicates\": []}]}");
    List<GraphExtractor.Verdict> verdicts =
        extractor.judge(
            List.of(
                new GraphExtractor.Question(
                    0,
                    "Alice lives in Shanghai",
                    Instant.parse("2023-06-01T00:00:00Z"),
                    List.of(
                        new GraphExtractor.Candidate("r-a", "Alice lives in Shanghai city", null),
                        new GraphExtractor.Candidate(
                            "r-b",
                            "Alice lives in Beijing",
                            Instant.parse("2023-01-01T00:00:00Z")))),
                new GraphExtractor.Question(
                    1,
                    "Alice likes tea",
                    null,
                    List.of(new GraphExtractor.Candidate("r-b", "Alice lives in Beijing", null)))),
            new UsageMeter());
    assertThat(verdicts)
        .containsExactly(
            new GraphExtractor.Verdict(0, List.of("r-b"), List.of("r-a")),
            new GraphExtractor.Verdict(1, List.of(), List.of()));
    String shown = model.prompts().get(0).user();
    assertThat(shown)
        .contains("New fact 0: Alice lives in Shanghai (since 2023-06-01T00:00:00Z)\n")
        .contains(
            "  1. Alice lives in Shanghai city\n  2. Alice lives in Beijing (since 2023-01-01T00:00:00Z)")
        .contains("New fact 1: Alice likes tea\nExisting facts:\n  2. Alice lives in Beijing");
    assertThat(extractor.judge(List.of(), new UsageMeter())).isEmpty();
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void entityMatchesMapShownNumbersBackToIdsAndSkipZeroAndInventedOnes() {
    model.thenAnswer(
        "{\"matches\": [{\"new\": 0, \"existing\": 2}, {\"new\": 3, \"existing\": 0},"
            + " {\"new\": 3, \"existing\": 9}, {\"new\": \"x\", \"existing\": 1}]}");
    List<GraphExtractor.EntityMatch> matches =
        extractor.matchEntities(
            List.of(Message.user("Mel adopted a dog")),
            List.of(
                new GraphExtractor.EntityQuestion(
                    0,
                    "Mel",
                    "person",
                    List.of(
                        new GraphExtractor.EntityCandidate("e-mel", "Melvin", "person", 0.8),
                        new GraphExtractor.EntityCandidate(
                            "e-melanie", "Melanie", "person", 0.78))),
                new GraphExtractor.EntityQuestion(
                    3,
                    "Paris",
                    "city",
                    List.of(
                        new GraphExtractor.EntityCandidate(
                            "e-paris-tx", "Paris, Texas", "city", 0.76)))),
            new UsageMeter());
    assertThat(matches).containsExactly(new GraphExtractor.EntityMatch(0, "e-melanie"));
    assertThat(model.prompts().get(0).user())
        .contains("Mel adopted a dog")
        .contains(
            "New name 0: Mel (person)\nExisting entities:\n  1. Melvin (person)\n  2. Melanie (person)")
        .contains("New name 3: Paris (city)\nExisting entities:\n  3. Paris, Texas (city)");
    assertThat(extractor.matchEntities(List.of(), List.of(), new UsageMeter())).isEmpty();
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void anEntityMatchAnswerOfTheWrongShapeIsRetriedThenFails() {
    model.thenAnswer("{}").thenAnswer("{}").thenAnswer("{}");
    assertThatThrownBy(
            () ->
                extractor.matchEntities(
                    List.of(Message.user("hi")),
                    List.of(
                        new GraphExtractor.EntityQuestion(
                            0,
                            "Mel",
                            "person",
                            List.of(
                                new GraphExtractor.EntityCandidate(
                                    "e1", "Melanie", "person", 0.8)))),
                    new UsageMeter()))
        .isInstanceOf(LanguageModelException.class)
        .hasMessageContaining("graph entity resolution");
  }
}
