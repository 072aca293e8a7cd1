package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.graph.Entity;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.LanguageModel;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graph memory (Mem0g) end to end on the real embedded store, with a scripted language model (a
 * fake: no LLM is reachable here) answering the graph extraction and conflict calls; memories come
 * from the offline extractor.
 */
class GraphScenarioTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant JAN = Instant.parse("2023-01-10T09:00:00Z");
  private static final Instant MAR = Instant.parse("2023-03-01T00:00:00Z");
  private static final Instant JUN = Instant.parse("2023-06-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2024-02-02T12:00:00Z");

  @TempDir Path dir;
  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private final Map<String, String> extractions = new HashMap<>();
  private Function<LanguageModel.Prompt, String> judge = p -> "{\"verdicts\": []}";
  private EmbeddedStorage storage;
  private Memory memory;

  @BeforeEach
  void open() {
    storage = EmbeddedStorage.open(dir, 64);
    model.otherwise(
        p -> {
          if (p.system().equals(LlmGraphExtractor.JUDGE)) {
            return judge.apply(p);
          }
          String text = p.user().substring(p.user().lastIndexOf(": ") + 2);
          String answer = extractions.get(text);
          if (answer == null) {
            throw new AssertionError("no scripted extraction for: " + text);
          }
          return answer;
        });
    memory =
        Engram.builder()
            .storage(storage)
            .embedder(new HashEmbedder())
            .graph(
                new LlmGraphExtractor(
                    new ModelCaller(model, RetryPolicy.defaults(), d -> {}), 1000))
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build();
  }

  @AfterEach
  void close() {
    memory.close();
  }

  private GraphStore graph() {
    return storage.graph().orElseThrow();
  }

  private void script(String message, String json) {
    extractions.put(message, json.replace('\'', '"'));
  }

  private AddResult say(String speaker, String text, Instant at) {
    return memory.add(
        AddRequest.builder(ALICE)
            .message(
                new Message(Role.USER, text, speaker, at, "m-" + Math.abs((text + at).hashCode())))
            .build());
  }

  private static String triple(
      String s, String st, String rel, String d, String dt, String fact, String validAt) {
    return "{'entities': [{'name': '"
        + s
        + "', 'type': '"
        + st
        + "'}, {'name': '"
        + d
        + "', 'type': '"
        + dt
        + "'}], 'relations': [{'source': '"
        + s
        + "', 'relationship': '"
        + rel
        + "', 'destination': '"
        + d
        + "', 'fact': '"
        + fact
        + "', 'valid_at': "
        + (validAt == null ? "null" : "'" + validAt + "'")
        + ", 'invalid_at': null}]}";
  }

  /** The number the judge prompt shows for the existing fact with this text. */
  private static int numberOf(LanguageModel.Prompt p, String fact) {
    Matcher m = Pattern.compile("(?m)^\\s+(\\d+)\\. " + Pattern.quote(fact)).matcher(p.user());
    if (!m.find()) {
      throw new AssertionError("fact '" + fact + "' not shown in: " + p.user());
    }
    return Integer.parseInt(m.group(1));
  }

  private List<String> facts(List<GraphRelation> relations) {
    return relations.stream().map(GraphRelation::fact).toList();
  }

  private List<GraphRelation> searchRelations(String query, TimeView view) {
    return memory.search(SearchRequest.builder(ALICE, query).build(), view).relations();
  }

  private void aliceMoves() {
    script(
        "I live in Beijing",
        triple("Alice", "person", "lives_in", "Beijing", "city", "Alice lives in Beijing", null));
    script(
        "I moved to Shanghai",
        triple(
            "Alice",
            "person",
            "lives in",
            "Shanghai",
            "city",
            "Alice lives in Shanghai",
            "2023-06-01"));
    AddResult first = say("Alice", "I live in Beijing", JAN);
    assertThat(first.usage().llmCalls()).as("no candidates yet: extraction only").isEqualTo(1);
    // Cost per add with the scripted model's token rule (chars / 4): the figures in
    // docs/ARCHITECTURE.md.
    assertThat(first.usage().inputTokens() + "/" + first.usage().outputTokens())
        .isEqualTo("327/63");
    judge =
        p ->
            "{'verdicts': [{'new': 0, 'contradicted': ["
                + numberOf(p, "Alice lives in Beijing")
                + "], 'duplicates': []}]}".replace('\'', '"');
    judge = judge.andThen(s -> s.replace('\'', '"'));
    AddResult second = say("Alice", "I moved to Shanghai", JUN);
    assertThat(second.usage().llmCalls()).as("extraction and one conflict call").isEqualTo(2);
    // Each add reports its graph changes; in mem0's JSON shape: deleted_entities (here:
    // invalidated, kept) and
    // added_entities, with "target" as mem0 wrote it.
    assertThat(first.relations())
        .hasValueSatisfying(
            c -> {
              assertThat(c.added())
                  .extracting(GraphRelation::fact)
                  .containsExactly("Alice lives in Beijing");
              assertThat(c.invalidated()).isEmpty();
            });
    assertThat(second.relations())
        .hasValueSatisfying(
            c -> {
              assertThat(c.added())
                  .extracting(GraphRelation::fact, GraphRelation::validAt, GraphRelation::invalidAt)
                  .containsExactly(
                      org.assertj.core.groups.Tuple.tuple("Alice lives in Shanghai", JUN, null));
              assertThat(c.invalidated())
                  .extracting(GraphRelation::fact, GraphRelation::invalidAt)
                  .containsExactly(
                      org.assertj.core.groups.Tuple.tuple("Alice lives in Beijing", JUN));
            });
    com.fasterxml.jackson.databind.JsonNode json =
        dev.engram.json.MemoryJson.addResult(second).get("relations");
    assertThat(json.get("deleted_entities").get(0).get("source").asText()).isEqualTo("Alice");
    assertThat(json.get("deleted_entities").get(0).get("relationship").asText())
        .isEqualTo("lives_in");
    assertThat(json.get("deleted_entities").get(0).get("target").asText()).isEqualTo("Beijing");
    assertThat(json.get("deleted_entities").get(0).get("invalid_at").asText())
        .isEqualTo("2023-06-01T00:00:00Z");
    assertThat(json.get("added_entities").get(0).get("target").asText()).isEqualTo("Shanghai");
    assertThat(json.get("added_entities").get(0).has("destination")).isFalse();
    assertThat(second.usage().inputTokens() + "/" + second.usage().outputTokens())
        .isEqualTo("502/83");
  }

  @Test
  void aMoveInvalidatesTheOldHomeWhichStaysAnswerableAsOfBefore() {
    aliceMoves();
    List<GraphRelation> all = memory.entityRelations(ALICE, "alice", TimeView.ALL);
    assertThat(all)
        .extracting(GraphRelation::fact)
        .containsExactlyInAnyOrder("Alice lives in Beijing", "Alice lives in Shanghai");
    GraphRelation beijing =
        all.stream().filter(r -> r.destination().equals("Beijing")).findFirst().orElseThrow();
    assertThat(beijing.validAt()).isEqualTo(JAN);
    assertThat(beijing.invalidAt()).isEqualTo(JUN);
    assertThat(beijing.expiredAt()).isEqualTo(NOW);
    GraphRelation shanghai =
        all.stream().filter(r -> r.destination().equals("Shanghai")).findFirst().orElseThrow();
    assertThat(shanghai.relationship()).isEqualTo("lives_in");
    assertThat(shanghai.validAt()).isEqualTo(JUN);
    assertThat(shanghai.invalidAt()).isNull();

    assertThat(facts(searchRelations("where does Alice live?", TimeView.CURRENT)))
        .containsExactly("Alice lives in Shanghai");
    assertThat(
            facts(
                memory
                    .search(SearchRequest.builder(ALICE, "where does Alice live?").build())
                    .relations()))
        .containsExactly("Alice lives in Shanghai");
    assertThat(facts(searchRelations("where does Alice live?", TimeView.asOf(MAR))))
        .containsExactly("Alice lives in Beijing");
    assertThat(facts(searchRelations("where does Alice live?", TimeView.ALL)))
        .containsExactlyInAnyOrder("Alice lives in Shanghai", "Alice lives in Beijing");
    assertThat(facts(memory.entityRelations(ALICE, "Alice", TimeView.CURRENT)))
        .containsExactly("Alice lives in Shanghai");
  }

  @Test
  void aRepeatedStatementAddsProvenanceNotAnEdge() {
    script(
        "I live in Beijing",
        triple("Alice", "person", "lives_in", "Beijing", "city", "Alice lives in Beijing", null));
    script(
        "Still living in Beijing!",
        triple("alice", "person", "lives_in", "beijing", "city", "Alice lives in Beijing", null));
    say("Alice", "I live in Beijing", JAN);
    AddResult second = say("Alice", "Still living in Beijing!", MAR);
    assertThat(second.usage().llmCalls()).as("exact duplicate: no judge call").isEqualTo(1);
    var relations =
        graph()
            .relationsOf(
                "default",
                ALICE,
                graph().entitiesByName("default", ALICE, List.of("alice")).stream()
                    .map(Entity::id)
                    .toList(),
                TimeView.ALL);
    assertThat(relations).hasSize(1);
    assertThat(relations.get(0).sourceMessageIds()).hasSize(2);
    assertThat(relations.get(0).validAt()).isEqualTo(JAN);
    assertThat(graph().entitiesByName("default", ALICE, List.of("alice")).get(0).mentions())
        .isEqualTo(2);
  }

  @Test
  void aDuplicateJudgedByTheModelAddsProvenanceOnly() {
    script(
        "I live in Beijing",
        triple("Alice", "person", "lives_in", "Beijing", "city", "Alice lives in Beijing", null));
    script(
        "Beijing is my home",
        triple(
            "Alice",
            "person",
            "has_home_in",
            "Beijing",
            "city",
            "Alice has her home in Beijing",
            null));
    say("Alice", "I live in Beijing", JAN);
    judge =
        p ->
            ("{'verdicts': [{'new': 0, 'contradicted': [], 'duplicates': ["
                    + numberOf(p, "Alice lives in Beijing")
                    + "]}]}")
                .replace('\'', '"');
    AddResult second = say("Alice", "Beijing is my home", MAR);
    assertThat(second.usage().llmCalls()).isEqualTo(2);
    List<GraphRelation> all = memory.entityRelations(ALICE, "Alice", TimeView.ALL);
    assertThat(facts(all)).containsExactly("Alice lives in Beijing");
  }

  @Test
  void relationsBetweenUnrelatedEntitiesAreNeverCandidatesNorInvalidated() {
    script(
        "Bob likes jazz",
        triple("Bob", "person", "likes", "jazz", "music", "Bob likes jazz", null));
    say("Bob", "Bob likes jazz", JAN);
    // A judge that contradicts every fact it is shown.
    judge =
        p -> {
          StringBuilder all = new StringBuilder();
          Matcher m = Pattern.compile("(?m)^\\s+(\\d+)\\. ").matcher(p.user());
          while (m.find()) {
            all.append(all.length() == 0 ? "" : ", ").append(m.group(1));
          }
          return "{\"verdicts\": [{\"new\": 0, \"contradicted\": ["
              + all
              + ", 99], \"duplicates\": []}]}";
        };
    aliceMovesWithJudge();
    assertThat(
            model.prompts().stream()
                .filter(p -> p.system().equals(LlmGraphExtractor.JUDGE))
                .map(LanguageModel.Prompt::user))
        .noneMatch(u -> u.contains("jazz"));
    assertThat(memory.entityRelations(ALICE, "Bob", TimeView.CURRENT))
        .extracting(GraphRelation::fact)
        .containsExactly("Bob likes jazz");
    assertThat(memory.entityRelations(ALICE, "Beijing", TimeView.ALL).get(0).invalidAt())
        .isEqualTo(JUN);
  }

  private void aliceMovesWithJudge() {
    script(
        "I live in Beijing",
        triple("Alice", "person", "lives_in", "Beijing", "city", "Alice lives in Beijing", null));
    script(
        "I moved to Shanghai",
        triple(
            "Alice",
            "person",
            "lives_in",
            "Shanghai",
            "city",
            "Alice lives in Shanghai",
            "2023-06-01"));
    var keep = judge;
    judge =
        p -> {
          throw new AssertionError("no candidates expected for the first statement");
        };
    say("Alice", "I live in Beijing", JAN);
    judge = keep;
    say("Alice", "I moved to Shanghai", JUN);
  }

  @Test
  void whoWorksWithAliceFindsBobTwoHopsAway() {
    script(
        "Alice works at Acme",
        triple("Alice", "person", "works_at", "Acme", "organisation", "Alice works at Acme", null));
    script(
        "Bob works at Acme",
        triple("Bob", "person", "works_at", "ACME", "organisation", "Bob works at Acme", null));
    script(
        "Carol plays tennis",
        triple("Carol", "person", "plays", "tennis", "sport", "Carol plays tennis", null));
    say("Alice", "Alice works at Acme", JAN);
    judge = p -> "{\"verdicts\": [{\"new\": 0, \"contradicted\": [], \"duplicates\": []}]}";
    say("Bob", "Bob works at Acme", MAR);
    say("Carol", "Carol plays tennis", MAR);
    List<GraphRelation> found = searchRelations("who works with Alice?", TimeView.CURRENT);
    assertThat(facts(found))
        .as(found.toString())
        .startsWith("Alice works at Acme", "Bob works at Acme");
    assertThat(memory.graphAround(ALICE, "alice", 2, TimeView.CURRENT))
        .extracting(GraphRelation::fact)
        .containsExactly("Alice works at Acme", "Bob works at Acme");
    assertThat(memory.graphAround(ALICE, "alice", 1, TimeView.CURRENT))
        .extracting(GraphRelation::fact)
        .containsExactly("Alice works at Acme");
  }

  @Test
  void caseAndPunctuationVariantsMergeButSimilarNamesOfDifferentPeopleDoNot() {
    script(
        "one",
        "{'entities': [{'name': 'Alice Smith', 'type': 'person'}, {'name': 'Alice Jones', 'type': "
            + "'person'}], 'relations': [{'source': 'Alice Smith', 'relationship': 'knows', 'destination': "
            + "'Alice Jones', 'fact': 'Alice Smith knows Alice Jones', 'valid_at': null, 'invalid_at': null}]}");
    script(
        "two",
        "{'entities': [{'name': 'ALICE SMITH.', 'type': 'person'}, {'name': 'alice_smith', 'type': "
            + "'person'}, {'name': 'New  York', 'type': 'city'}], 'relations': [{'source': 'alice smith', "
            + "'relationship': 'Lives In', 'destination': 'new-york', 'fact': 'Alice Smith lives in New York', "
            + "'valid_at': null, 'invalid_at': null}]}");
    say("Bob", "one", JAN);
    say("Bob", "two", MAR);
    List<Entity> smiths = graph().entitiesByName("default", ALICE, List.of("alice smith"));
    assertThat(smiths).hasSize(1);
    assertThat(smiths.get(0).name()).isEqualTo("Alice Smith");
    assertThat(smiths.get(0).mentions()).isEqualTo(2);
    assertThat(graph().entitiesByName("default", ALICE, List.of("alice jones"))).hasSize(1);
    assertThat(memory.entityRelations(ALICE, "alice smith", TimeView.CURRENT))
        .extracting(GraphRelation::relationship, GraphRelation::destination)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("knows", "Alice Jones"),
            org.assertj.core.groups.Tuple.tuple("lives_in", "New  York"));
  }

  @Test
  void aFailedModelCallDuringGraphWritingLeavesMemoriesAndGraphUnchanged() {
    script(
        "I live in Beijing",
        triple("Alice", "person", "lives_in", "Beijing", "city", "Alice lives in Beijing", null));
    say("Alice", "I live in Beijing", JAN);
    memory.close();
    String before = StoreDump.of(dir);
    open();
    script(
        "I moved to Shanghai",
        triple(
            "Alice",
            "person",
            "lives_in",
            "Shanghai",
            "city",
            "Alice lives in Shanghai",
            "2023-06-01"));
    for (int failAt = 0; failAt < 2; failAt++) {
      int calls = model.calls();
      int failing = failAt;
      judge =
          p -> {
            throw new LanguageModelException(Kind.BAD_REQUEST, "scripted judge failure");
          };
      if (failing == 0) {
        model.thenFail(Kind.AUTHENTICATION);
      }
      assertThatThrownBy(() -> say("Alice", "I moved to Shanghai", JUN))
          .isInstanceOf(LanguageModelException.class)
          .hasMessageContaining(failing == 0 ? "graph extraction" : "graph conflict resolution");
      assertThat(model.calls() - calls).isEqualTo(failing + 1);
    }
    memory.close();
    assertThat(StoreDump.of(dir)).isEqualTo(before);
    open();
  }

  @Test
  void deleteEntityDeleteAllAndResetClearTheGraph() {
    aliceMoves();
    script(
        "Bob likes jazz",
        triple("Bob", "person", "likes", "jazz", "music", "Bob likes jazz", null));
    say("Bob", "Bob likes jazz", MAR);
    assertThat(memory.deleteEntity(ALICE, "BEIJING")).isEqualTo(1);
    assertThat(facts(memory.entityRelations(ALICE, "Alice", TimeView.ALL)))
        .containsExactly("Alice lives in Shanghai");
    assertThat(memory.deleteEntity(ALICE, "nobody")).isZero();
    memory.deleteAll(ALICE);
    assertThat(memory.entityRelations(ALICE, "Bob", TimeView.ALL)).isEmpty();
    assertThat(
            graph().entitiesByName("default", ALICE, List.of("alice", "bob", "shanghai", "jazz")))
        .isEmpty();
    say("Bob", "Bob likes jazz", MAR);
    assertThat(memory.entityRelations(ALICE, "Bob", TimeView.ALL)).hasSize(1);
    memory.reset();
    assertThat(memory.entityRelations(ALICE, "Bob", TimeView.ALL)).isEmpty();
  }

  @Test
  void anOlderFactArrivingLateIsStoredAlreadyEnded() {
    script(
        "I moved to Shanghai",
        triple(
            "Alice",
            "person",
            "lives_in",
            "Shanghai",
            "city",
            "Alice lives in Shanghai",
            "2023-06-01"));
    script(
        "Back in January I lived in Beijing",
        triple(
            "Alice",
            "person",
            "lives_in",
            "Beijing",
            "city",
            "Alice lives in Beijing",
            "2023-01-10"));
    say("Alice", "I moved to Shanghai", JUN);
    judge =
        p ->
            ("{'verdicts': [{'new': 0, 'contradicted': ["
                    + numberOf(p, "Alice lives in Shanghai")
                    + "], 'duplicates': []}]}")
                .replace('\'', '"');
    say("Alice", "Back in January I lived in Beijing", MAR);
    List<GraphRelation> all = memory.entityRelations(ALICE, "Alice", TimeView.ALL);
    GraphRelation beijing =
        all.stream().filter(r -> r.destination().equals("Beijing")).findFirst().orElseThrow();
    GraphRelation shanghai =
        all.stream().filter(r -> r.destination().equals("Shanghai")).findFirst().orElseThrow();
    assertThat(beijing.validAt()).isEqualTo(JAN.truncatedTo(java.time.temporal.ChronoUnit.DAYS));
    assertThat(beijing.invalidAt()).isEqualTo(JUN);
    assertThat(beijing.expiredAt()).isEqualTo(NOW);
    assertThat(shanghai.invalidAt()).isNull();
    assertThat(facts(searchRelations("where does Alice live?", TimeView.CURRENT)))
        .containsExactly("Alice lives in Shanghai");
    assertThat(facts(searchRelations("where does Alice live?", TimeView.asOf(MAR))))
        .containsExactly("Alice lives in Beijing");
  }
}
