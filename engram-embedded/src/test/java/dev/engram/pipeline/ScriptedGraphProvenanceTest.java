package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineExtractor;
import dev.engram.graph.TimeView;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provenance of the LLM graph extractor's relations on the real embedded store, with a scripted
 * language model (a fake: no LLM is reachable here) answering the extraction; memories come from
 * the offline extractor, one per message. The model names the message of each relation by its
 * number in the prompt; the engine maps it back to that message's source id and to the memories of
 * that message.
 */
class ScriptedGraphProvenanceTest {
  private static final Scope CONV = Scope.user("conv");
  private static final Instant MAY = Instant.parse("2023-05-08T13:56:00Z");

  @TempDir Path dir;
  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private Memory memory;

  @BeforeEach
  void open() {
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .inference(OfflineExtractor.create())
            .graph(
                new LlmGraphExtractor(
                    new ModelCaller(model, RetryPolicy.defaults(), d -> {}), 1000))
            .build();
  }

  @AfterEach
  void close() {
    memory.close();
  }

  private AddResult addSession(String answer) {
    model.thenAnswer(answer.replace('\'', '"'));
    return memory.add(
        AddRequest.builder(CONV)
            .messages(
                List.of(
                    new Message(Role.USER, "I live in Beijing.", "Alice", MAY, "s1:1"),
                    new Message(Role.USER, "I work at Acme.", "Bob", MAY, "s1:2"),
                    new Message(Role.USER, "Tea is my favourite drink.", "Carol", MAY, "s1:3")))
            .build());
  }

  private static String relation(String s, String rel, String d, String fact, String message) {
    return "{'source': '"
        + s
        + "', 'relationship': '"
        + rel
        + "', 'destination': '"
        + d
        + "', 'fact': '"
        + fact
        + "', 'valid_at': null, 'invalid_at': null"
        + (message == null ? "" : ", 'message': " + message)
        + "}";
  }

  private String memoryFrom(String sourceId) {
    return memory.list(dev.engram.ListRequest.of(CONV)).items().stream()
        .filter(m -> m.sourceIds().equals(List.of(sourceId)))
        .map(MemoryItem::id)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void eachRelationNamesOnlyTheMessageTheModelSaysStatesIt() {
    AddResult added =
        addSession(
            "{'entities': [], 'relations': ["
                + relation("Alice", "lives_in", "Beijing", "Alice lives in Beijing", "1")
                + ", "
                + relation("Bob", "works_at", "Acme", "Bob works at Acme", "2")
                + ", "
                + relation("Carol", "likes", "tea", "Carol likes tea", "'3'")
                + "]}");

    String prompt = model.prompts().get(0).user();
    assertThat(prompt)
        .contains(
            "1. [2023-05-08 13:56 (Monday)] Alice (user): I live in Beijing.\n"
                + "2. [2023-05-08 13:56 (Monday)] Bob (user): I work at Acme.\n3. ");
    assertThat(added.relations().orElseThrow().added())
        .extracting(GraphRelation::fact, GraphRelation::sourceIds, GraphRelation::memoryIds)
        .containsExactly(
            tuple("Alice lives in Beijing", List.of("s1:1"), List.of(memoryFrom("s1:1"))),
            tuple("Bob works at Acme", List.of("s1:2"), List.of(memoryFrom("s1:2"))),
            tuple("Carol likes tea", List.of("s1:3"), List.of(memoryFrom("s1:3"))));
    // The store keeps it: read back, each relation still names its own message only.
    assertThat(memory.entityRelations(CONV, "bob", TimeView.ALL))
        .extracting(GraphRelation::sourceIds)
        .containsExactly(List.of("s1:2"));
  }

  @Test
  void withoutAUsableMessageNumberARelationKeepsTheWholeAdd() {
    AddResult added =
        addSession(
            "{'entities': [], 'relations': ["
                + relation("Alice", "lives_in", "Beijing", "Alice lives in Beijing", null)
                + ", "
                + relation("Bob", "works_at", "Acme", "Bob works at Acme", "9")
                + ", "
                + relation("Carol", "likes", "tea", "Carol likes tea", "[3, 1]")
                + "]}");
    List<String> all = List.of("s1:1", "s1:2", "s1:3");
    assertThat(added.relations().orElseThrow().added())
        .extracting(GraphRelation::fact, GraphRelation::sourceIds)
        .containsExactly(
            tuple("Alice lives in Beijing", all),
            tuple("Bob works at Acme", all),
            tuple("Carol likes tea", List.of("s1:3", "s1:1")));
    assertThat(added.relations().orElseThrow().added().get(0).memoryIds()).hasSize(3);
    assertThat(added.relations().orElseThrow().added().get(2).memoryIds())
        .containsExactlyInAnyOrder(memoryFrom("s1:1"), memoryFrom("s1:3"));
  }
}
