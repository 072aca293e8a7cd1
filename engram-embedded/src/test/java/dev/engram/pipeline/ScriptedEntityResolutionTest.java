package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.LanguageModelException;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.Entity;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.LanguageModel;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entity resolution's last step: a name whose closest existing entities are similar but below the
 * merge threshold goes to the graph extractor's model (a scripted fake: no LLM is reachable here)
 * in one call per add. With the test's hash embedder (one bucket per word) "Melanie Smith" and
 * "Melanie Rose Smith" have cosine 2 / sqrt(6) = 0.816, inside the default ambiguous band [0.75,
 * 0.9); "Alice Smith" and "Alice Jones" have 0.5, below it. A name the model matched is remembered
 * as an alias of the entity and resolves by name afterwards. The company names fall into different
 * buckets (Acme, Globex, Hooli), so they never merge.
 */
class ScriptedEntityResolutionTest {
  private static final Scope SCOPE = Scope.user("u1");
  private static final Instant JAN = Instant.parse("2023-01-10T09:00:00Z");
  private static final Instant MAR = Instant.parse("2023-03-01T00:00:00Z");
  private static final Instant MAY = Instant.parse("2023-05-01T00:00:00Z");

  @TempDir Path dir;
  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private final List<LanguageModel.Prompt> matchPrompts = new ArrayList<>();
  private Function<LanguageModel.Prompt, String> matcher =
      p -> {
        throw new AssertionError("no entity-resolution call expected: " + p.user());
      };
  private Memory memory;
  private EmbeddedStorage storage;

  private void open(GraphExtractor extractor) {
    model.otherwise(
        p -> {
          if (p.system().equals(LlmGraphExtractor.JUDGE)) {
            return "{\"verdicts\": []}";
          }
          if (p.system().equals(LlmGraphExtractor.MATCH)) {
            matchPrompts.add(p);
            return matcher.apply(p).replace('\'', '"');
          }
          String text = p.user().substring(p.user().lastIndexOf(": ") + 2);
          return switch (text) {
            case "first" -> worksAt("Melanie Rose Smith", "Acme");
            case "second" -> worksAt("Melanie Smith", "Globex");
            case "third" -> worksAt("Melanie Smith", "Hooli");
            default -> throw new AssertionError("no scripted extraction for: " + text);
          };
        });
    memory =
        Engram.builder()
            .storage(storage = EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(extractor)
            .clock(Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC))
            .build();
  }

  private LlmGraphExtractor llm() {
    return new LlmGraphExtractor(new ModelCaller(model, RetryPolicy.defaults(), d -> {}), 1000);
  }

  @AfterEach
  void close() {
    if (memory != null) {
      memory.close();
    }
  }

  private static String worksAt(String person, String company) {
    return ("{'entities': [{'name': '"
            + person
            + "', 'type': 'person'}, {'name': '"
            + company
            + "', 'type': "
            + "'organisation'}], 'relations': [{'source': '"
            + person
            + "', 'relationship': 'works_at', 'destination': '"
            + company
            + "', 'fact': '"
            + person
            + " works at "
            + company
            + "', 'valid_at': null, 'invalid_at': null}]}")
        .replace('\'', '"');
  }

  private AddResult say(String text, Instant at) {
    return memory.add(
        AddRequest.builder(SCOPE)
            .message(new Message(Role.USER, text, "Bob", at, "m-" + text))
            .build());
  }

  private List<Entity> entities(String normalizedName) {
    return storage.graph().orElseThrow().entitiesByName("default", SCOPE, List.of(normalizedName));
  }

  @Test
  void anAmbiguousNameTheModelMatchesJoinsTheExistingEntity() {
    open(llm());
    say("first", JAN);
    matcher = p -> "{'matches': [{'new': 0, 'existing': 1}]}";
    AddResult second = say("second", MAR);

    assertThat(second.usage().llmCalls())
        .as(
            "extraction, entity resolution, then the judge: the merged entity already has a relation")
        .isEqualTo(3);
    assertThat(model.prompts().get(model.prompts().size() - 1).user())
        .contains("Melanie Smith works at Globex", "1. Melanie Rose Smith works at Acme");
    assertThat(matchPrompts).hasSize(1);
    // Cost of the three calls with the scripted model's token rule (chars / 4): the figure in
    // docs/BENCHMARKS.md.
    assertThat(second.usage().inputTokens() + "/" + second.usage().outputTokens())
        .isEqualTo("704/84");
    assertThat(matchPrompts.get(0).user())
        .contains(
            "Bob (user): second",
            "New name 0: Melanie Smith (person)",
            "  1. Melanie Rose Smith (person)")
        .doesNotContain("Acme");
    assertThat(entities("melanie smith"))
        .as("no new entity: the name is an alias of the matched one")
        .singleElement()
        .extracting(Entity::name, Entity::aliases)
        .containsExactly("Melanie Rose Smith", List.of("melanie smith"));
    assertThat(entities("melanie rose smith"))
        .singleElement()
        .extracting(Entity::mentions)
        .isEqualTo(2);
    assertThat(memory.entityRelations(SCOPE, "Melanie Rose Smith", TimeView.CURRENT))
        .extracting(GraphRelation::relationship, GraphRelation::destination)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("works_at", "Acme"),
            org.assertj.core.groups.Tuple.tuple("works_at", "Globex"));
  }

  @Test
  void aNameTheModelMatchedResolvesByAliasWithoutAnotherCall() {
    open(llm());
    say("first", JAN);
    matcher = p -> "{'matches': [{'new': 0, 'existing': 1}]}";
    say("second", MAR);
    Entity merged = entities("melanie rose smith").get(0);
    matcher =
        p -> {
          throw new AssertionError("the alias must resolve the name: " + p.user());
        };
    AddResult third = say("third", MAY);

    assertThat(third.usage().llmCalls())
        .as("extraction and the judge, no entity resolution")
        .isEqualTo(2);
    assertThat(matchPrompts).hasSize(1);
    assertThat(model.prompts().get(model.prompts().size() - 1).system())
        .isEqualTo(LlmGraphExtractor.JUDGE);
    assertThat(entities("melanie smith"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.id()).isEqualTo(merged.id());
              assertThat(e.name()).isEqualTo("Melanie Rose Smith");
              assertThat(e.aliases()).containsExactly("melanie smith");
              assertThat(e.mentions()).isEqualTo(3);
            });
    assertThat(entities("melanie rose smith")).extracting(Entity::id).containsExactly(merged.id());
    assertThat(memory.entityRelations(SCOPE, "Melanie Smith", TimeView.CURRENT))
        .extracting(GraphRelation::source, GraphRelation::relationship, GraphRelation::destination)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Melanie Rose Smith", "works_at", "Acme"),
            org.assertj.core.groups.Tuple.tuple("Melanie Rose Smith", "works_at", "Globex"),
            org.assertj.core.groups.Tuple.tuple("Melanie Rose Smith", "works_at", "Hooli"));
    assertThat(memory.entityRelations(SCOPE, "Melanie Rose Smith", TimeView.CURRENT)).hasSize(3);
  }

  @Test
  void anAmbiguousNameTheModelRejectsBecomesADistinctEntity() {
    open(llm());
    say("first", JAN);
    matcher = p -> "{'matches': [{'new': 0, 'existing': 0}]}";
    say("second", MAR);

    assertThat(matchPrompts).hasSize(1);
    assertThat(entities("melanie smith")).singleElement().extracting(Entity::mentions).isEqualTo(1);
    assertThat(entities("melanie rose smith"))
        .singleElement()
        .extracting(Entity::mentions)
        .isEqualTo(1);
    assertThat(memory.entityRelations(SCOPE, "Melanie Smith", TimeView.CURRENT))
        .extracting(GraphRelation::destination)
        .containsExactly("Globex");
  }

  @Test
  void numbersTheModelInventsAreIgnored() {
    open(llm());
    say("first", JAN);
    matcher = p -> "{'matches': [{'new': 0, 'existing': 7}, {'new': 5, 'existing': 1}]}";
    say("second", MAR);

    assertThat(entities("melanie smith"))
        .as("invented candidate and question numbers match nothing")
        .hasSize(1);
    assertThat(entities("melanie rose smith"))
        .singleElement()
        .extracting(Entity::mentions)
        .isEqualTo(1);
  }

  @Test
  void namesBelowTheFloorOrAboveTheThresholdNeverReachTheModel() {
    open(llm());
    say("first", JAN);
    memory.close();
    // Floor above 0.816: "Melanie Smith" is simply a new name, no call.
    memory =
        Engram.builder()
            .storage(storage = EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(llm())
            .graphAmbiguityFloor(0.85)
            .build();
    AddResult second = say("second", MAR);
    assertThat(second.usage().llmCalls()).isEqualTo(1);
    assertThat(matchPrompts).isEmpty();
    assertThat(entities("melanie smith")).hasSize(1);
  }

  @Test
  void aSimilarNameAboveTheThresholdMergesWithoutTheModel() {
    open(llm());
    say("first", JAN);
    memory.close();
    memory =
        Engram.builder()
            .storage(storage = EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(llm())
            .graphEntityThreshold(0.8)
            .build();
    AddResult second = say("second", MAR);
    assertThat(second.usage().llmCalls())
        .as("extraction and the judge, no entity resolution")
        .isEqualTo(2);
    assertThat(matchPrompts).isEmpty();
    assertThat(entities("melanie smith")).isEmpty();
    assertThat(entities("melanie rose smith"))
        .singleElement()
        .extracting(Entity::mentions)
        .isEqualTo(2);
  }

  @Test
  void aFailedEntityResolutionCallWritesNothing() {
    open(llm());
    say("first", JAN);
    memory.close();
    String before = StoreDump.of(dir);
    open(llm());
    matcher =
        p -> {
          throw new LanguageModelException(
              LanguageModelException.Kind.BAD_REQUEST, "scripted failure");
        };
    assertThatThrownBy(() -> say("second", MAR))
        .isInstanceOf(LanguageModelException.class)
        .hasMessageContaining("graph entity resolution");
    memory.close();
    memory = null;
    assertThat(StoreDump.of(dir)).isEqualTo(before);
  }

  @Test
  void theOfflineExtractorKeepsAmbiguousNamesApartWithoutAnyCall() {
    open(OfflineGraphExtractor.create());
    memory.add(
        AddRequest.builder(SCOPE)
            .message(new Message(Role.USER, "Melanie Rose Smith joined Acme", "Bob", JAN, "m1"))
            .build());
    AddResult second =
        memory.add(
            AddRequest.builder(SCOPE)
                .message(new Message(Role.USER, "Melanie Smith joined Globex", "Bob", MAR, "m2"))
                .build());
    assertThat(second.usage().llmCalls()).isZero();
    assertThat(model.calls()).isZero();
    assertThat(entities("melanie smith")).hasSize(1);
    assertThat(entities("melanie rose smith")).hasSize(1);
  }

  @Test
  void theAmbiguityFloorIsValidated() throws java.io.IOException {
    try (EmbeddedStorage s = EmbeddedStorage.open(dir, 64)) {
      assertThatThrownBy(
              () ->
                  Engram.builder()
                      .storage(s)
                      .embedder(new HashEmbedder())
                      .graphAmbiguityFloor(0)
                      .build())
          .isInstanceOf(dev.engram.ValidationException.class)
          .hasMessageContaining("graphAmbiguityFloor: must be in (0, 1], got 0.0");
    }
  }
}
