package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.LanguageModelException;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.Entity;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.StorageWithGraph;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph memory follows the memories it was learned from, end to end on the real embedded store:
 * a user delete forgets (relations only the memory supported go, shared ones lose its id), a
 * pipeline DELETE invalidates, a text update invalidates the old relations and writes the new
 * text's, a metadata update changes nothing, and a failed update writes nothing. Memories come
 * verbatim ({@code infer=false}) or from a scripted inference; the graph from the offline extractor
 * or a scripted language model (fakes: no LLM is reachable here).
 */
class GraphRetirementScenarioTest {
  private static final String TENANT = "default";
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant JAN = Instant.parse("2023-01-10T09:00:00Z");
  private static final Instant JUN = Instant.parse("2023-06-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2024-02-02T12:00:00Z");

  @TempDir Path dir;
  @TempDir Path graphDir;

  private EmbeddedStorage storage;

  private Engram.Builder offline() {
    storage = EmbeddedStorage.open(dir, 64);
    return Engram.builder()
        .storage(storage)
        .embedder(new HashEmbedder())
        .graph(OfflineGraphExtractor.create())
        .clock(Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private GraphStore graph() {
    return storage.graph().orElseThrow();
  }

  /** Stores the message verbatim as one memory (and its graph); returns the memory's id. */
  private static String remember(Memory memory, String speaker, String text, Instant at) {
    AddResult r =
        memory.add(
            AddRequest.builder(ALICE)
                .message(new Message(Role.USER, text, speaker, at, null))
                .infer(false)
                .build());
    assertThat(r.events()).hasSize(1);
    return r.events().get(0).id();
  }

  /**
   * Every relation of the tenant that lists one of these memories, as "source -name-> target
   * [memory ids]".
   */
  private List<String> relationsOf(GraphStore graph, String... memoryIds) {
    List<String> out = new ArrayList<>();
    for (Relation r : graph.relationsFromMemories(TENANT, List.of(memoryIds))) {
      out.add(describe(graph, r));
    }
    out.sort(null);
    return out;
  }

  private static String describe(GraphStore graph, Relation r) {
    Map<String, String> names = new HashMap<>();
    for (Entity e : graph.entities(TENANT, List.of(r.sourceId(), r.targetId()))) {
      names.put(e.id(), e.name());
    }
    return names.get(r.sourceId())
        + " -"
        + r.name()
        + "-> "
        + names.get(r.targetId())
        + " "
        + r.memoryIds()
        + (r.invalidated() ? " invalid " + r.invalidAt() + " expired " + r.expiredAt() : "");
  }

  /** The names of the entities of Alice's scope. */
  private Set<String> entityNames(GraphStore graph) {
    Set<String> out = new TreeSet<>();
    for (String n : List.of("alice", "acme", "bob", "globex", "paris")) {
      graph.entitiesByName(TENANT, ALICE, List.of(n)).forEach(e -> out.add(e.name()));
    }
    return out;
  }

  @Test
  void deletingAMemoryForgetsWhatOnlyItSupportedAndShrinksSharedProvenance() {
    try (Memory memory = offline().build()) {
      String work = remember(memory, "Alice", "I work at Acme with Bob.", JAN);
      String trip = remember(memory, "Alice", "Bob and I went to Paris.", JUN);
      assertThat(relationsOf(graph(), work, trip))
          .containsExactly(
              "Acme -related_to-> Bob [" + work + "]",
              "Alice -related_to-> Acme [" + work + "]",
              "Alice -related_to-> Bob [" + work + ", " + trip + "]",
              "Alice -related_to-> Paris [" + trip + "]",
              "Bob -related_to-> Paris [" + trip + "]");

      memory.delete(work);

      assertThat(relationsOf(graph(), work)).isEmpty();
      assertThat(relationsOf(graph(), trip))
          .containsExactly(
              "Alice -related_to-> Bob [" + trip + "]",
              "Alice -related_to-> Paris [" + trip + "]",
              "Bob -related_to-> Paris [" + trip + "]");
      // Acme was named only by the deleted memory: it goes with its relations; the others are still
      // connected.
      assertThat(entityNames(graph())).containsExactly("Alice", "Bob", "Paris");
      assertThat(memory.entityRelations(ALICE, "Acme", TimeView.ALL)).isEmpty();

      memory.delete(trip);
      assertThat(relationsOf(graph(), work, trip)).isEmpty();
      assertThat(entityNames(graph())).isEmpty();
    }
  }

  @Test
  void purgingExpiredMemoriesForgetsTheirRelationsToo() {
    try (Memory memory = offline().build()) {
      String kept = remember(memory, "Alice", "Bob and I went to Paris.", JUN);
      AddResult r =
          memory.add(
              AddRequest.builder(ALICE)
                  .message(new Message(Role.USER, "I work at Acme with Bob.", "Alice", JAN, null))
                  .infer(false)
                  .expiration(java.time.LocalDate.parse("2024-01-01"))
                  .build());
      String expired = r.events().get(0).id();
      assertThat(memory.purgeExpired()).isEqualTo(1);
      assertThat(relationsOf(graph(), expired)).isEmpty();
      assertThat(relationsOf(graph(), kept))
          .containsExactly(
              "Alice -related_to-> Bob [" + kept + "]",
              "Alice -related_to-> Paris [" + kept + "]",
              "Bob -related_to-> Paris [" + kept + "]");
      assertThat(entityNames(graph())).containsExactly("Alice", "Bob", "Paris");
    }
  }

  @Test
  void aScriptedPipelineDeleteInvalidatesWhatOnlyTheDeletedMemorySupported() {
    List<List<MemoryInference.PlannedChange>> plans = new ArrayList<>();
    try (Memory memory = offline().inference(ctx -> plans.remove(0)).build()) {
      String acme = remember(memory, "Alice", "I work at Acme with Bob.", JAN);
      String bob = remember(memory, "Alice", "Bob is my friend.", JAN);
      plans.add(
          List.of(
              new MemoryInference.Delete(acme),
              new MemoryInference.Add(
                  "Alice works at Globex.", "Alice", Role.USER, null, List.of())));
      AddResult moved =
          memory.add(
              AddRequest.builder(ALICE)
                  .message(
                      new Message(
                          Role.USER, "I left Acme, I work at Globex now.", "Alice", JUN, null))
                  .build());
      assertThat(moved.events())
          .extracting(MemoryEvent::event)
          .containsExactly(EventType.DELETE, EventType.ADD);
      String globex = moved.events().get(1).id();

      assertThat(memory.get(acme)).isEmpty();
      // A conflict never erases: the relations only the deleted memory supported end at the add's
      // message time.
      assertThat(relationsOf(graph(), acme, bob, globex))
          .containsExactly(
              "Acme -related_to-> Bob [" + acme + "] invalid " + JUN + " expired " + NOW,
              "Alice -related_to-> Acme [" + acme + "] invalid " + JUN + " expired " + NOW,
              "Alice -related_to-> Bob [" + acme + ", " + bob + "]",
              "Alice -related_to-> Globex [" + globex + "]");
      assertThat(entityNames(graph())).containsExactly("Acme", "Alice", "Bob", "Globex");
      // The add reports what it did to the graph (mem0's added_entities / deleted_entities).
      assertThat(moved.relations())
          .hasValueSatisfying(
              changes -> {
                assertThat(changes.added())
                    .extracting(r -> r.source() + " " + r.relationship() + " " + r.destination())
                    .containsExactly("Alice related_to Globex");
                assertThat(changes.invalidated())
                    .extracting(r -> r.source() + " " + r.destination() + " " + r.invalidAt())
                    .containsExactlyInAnyOrder("Alice Acme " + JUN, "Acme Bob " + JUN);
              });
    }
  }

  @Test
  void aTextUpdateInvalidatesTheOldRelationsAndWritesTheNewTexts() {
    try (Memory memory = offline().build()) {
      String id = remember(memory, "Alice", "I work at Acme.", JAN);
      assertThat(relationsOf(graph(), id)).containsExactly("Alice -related_to-> Acme [" + id + "]");

      memory.update(id, MemoryUpdate.text("Alice works at Globex."));

      assertThat(relationsOf(graph(), id))
          .containsExactly(
              "Alice -related_to-> Acme [" + id + "] invalid " + NOW + " expired " + NOW,
              "Alice -related_to-> Globex [" + id + "]");
      assertThat(memory.entityRelations(ALICE, "Alice", TimeView.CURRENT))
          .extracting(g -> g.destination())
          .containsExactly("Globex");
      assertThat(memory.entityRelations(ALICE, "Alice", TimeView.asOf(JUN)))
          .extracting(g -> g.destination())
          .containsExactly("Acme");
    }
  }

  @Test
  void aTextUpdateThatStatesTheSameRelationAgainKeepsItValid() {
    try (Memory memory = offline().build()) {
      String id = remember(memory, "Alice", "I work at Acme.", JAN);
      memory.update(id, MemoryUpdate.text("Alice has worked at Acme for years."));
      assertThat(relationsOf(graph(), id)).containsExactly("Alice -related_to-> Acme [" + id + "]");
    }
  }

  @Test
  void aMetadataUpdateLeavesTheGraphAlone() {
    try (Memory memory = offline().build()) {
      String id = remember(memory, "Alice", "I work at Acme with Bob.", JAN);
      String before = graphTables(StoreDump.of(dir));
      memory.update(id, MemoryUpdate.metadata(Map.of("topic", "work")));
      assertThat(memory.get(id).orElseThrow().metadata()).isEqualTo(Map.of("topic", "work"));
      assertThat(graphTables(StoreDump.of(dir))).isEqualTo(before).contains("Acme");
    }
  }

  /** Only the graph tables of a dump. */
  private static String graphTables(String dump) {
    StringBuilder out = new StringBuilder();
    for (String table : dump.split("(?m)^## ")) {
      if (table.startsWith("graph_")) {
        out.append(table);
      }
    }
    return out.toString();
  }

  /** An LLM graph extractor over a scripted model: extractions by message text, an empty judge. */
  private Memory scriptedLlm(ScriptedLanguageModel model, Map<String, String> extractions) {
    storage = EmbeddedStorage.open(dir, 64);
    Function<dev.engram.spi.LanguageModel.Prompt, String> answer =
        p -> {
          if (p.system().equals(LlmGraphExtractor.JUDGE)) {
            return "{\"verdicts\": []}";
          }
          String text = p.user().substring(p.user().lastIndexOf(": ") + 2);
          String json = extractions.get(text);
          if (json == null) {
            throw new LanguageModelException(
                LanguageModelException.Kind.BAD_REQUEST, "no extraction for " + text);
          }
          return json.replace('\'', '"');
        };
    model.otherwise(answer);
    return Engram.builder()
        .storage(storage)
        .embedder(new HashEmbedder())
        .graph(new LlmGraphExtractor(new ModelCaller(model, RetryPolicy.defaults(), d -> {}), 1000))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .build();
  }

  private static String lives(String city) {
    return "{'entities': [{'name': 'Alice', 'type': 'person'}, {'name': '"
        + city
        + "', 'type': 'city'}],"
        + " 'relations': [{'source': 'Alice', 'relationship': 'lives_in', 'destination': '"
        + city
        + "',"
        + " 'fact': 'Alice lives in "
        + city
        + "', 'valid_at': null, 'invalid_at': null}]}";
  }

  @Test
  void aTextUpdateWithAScriptedModelInvalidatesTheOldFactAndAddsTheNewOne() {
    ScriptedLanguageModel model = new ScriptedLanguageModel();
    Map<String, String> extractions =
        new HashMap<>(
            Map.of(
                "I live in Beijing",
                lives("Beijing"),
                "Alice lives in Shanghai",
                lives("Shanghai")));
    try (Memory memory = scriptedLlm(model, extractions)) {
      String id = remember(memory, "Alice", "I live in Beijing", JAN);
      memory.update(id, MemoryUpdate.text("Alice lives in Shanghai"));
      assertThat(relationsOf(graph(), id))
          .containsExactly(
              "Alice -lives_in-> Beijing [" + id + "] invalid " + NOW + " expired " + NOW,
              "Alice -lives_in-> Shanghai [" + id + "]");
      assertThat(memory.get(id).orElseThrow().text()).isEqualTo("Alice lives in Shanghai");
    }
  }

  @Test
  void aScriptedExtractionFailureDuringAnUpdateChangesNeitherMemoriesNorGraph() {
    ScriptedLanguageModel model = new ScriptedLanguageModel();
    try (Memory memory = scriptedLlm(model, Map.of("I live in Beijing", lives("Beijing")))) {
      String id = remember(memory, "Alice", "I live in Beijing", JAN);
      String before = StoreDump.of(dir);
      assertThat(before).contains("Alice lives in Beijing");
      assertThatThrownBy(() -> memory.update(id, MemoryUpdate.text("Alice lives in Shanghai")))
          .isInstanceOf(LanguageModelException.class);
      assertThat(StoreDump.of(dir)).isEqualTo(before);
      assertThat(memory.get(id).orElseThrow().text()).isEqualTo("I live in Beijing");
      assertThat(memory.history(id)).hasSize(1);
    }
  }

  @Test
  void aSeparateGraphStoreForgetsDeletedMemoriesAfterTheMemoryCommit() {
    SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("engram.db"), Durability.NORMAL);
    try (Memory memory =
        Engram.builder()
            .storage(StorageWithGraph.of(EmbeddedStorage.open(dir, 64), graphDb.graph()))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      String work = remember(memory, "Alice", "I work at Acme with Bob.", JAN);
      String trip = remember(memory, "Alice", "Bob and I went to Paris.", JUN);
      memory.delete(work);
      assertThat(relationsOf(graphDb.graph(), work)).isEmpty();
      assertThat(relationsOf(graphDb.graph(), trip)).hasSize(3);
      assertThat(entityNames(graphDb.graph())).containsExactly("Alice", "Bob", "Paris");
    } finally {
      graphDb.close();
    }
  }
}
