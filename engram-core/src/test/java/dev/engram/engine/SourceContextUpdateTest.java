package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ExportRequest;
import dev.engram.Memory;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.MemoryInference;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.ScriptedInference;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What becomes of a memory's source context when it changes: an inference update gives it the
 * exchange that changed the fact, a text update through the API clears it (it told the old fact), a
 * metadata update keeps it. The inference here is scripted (no language model runs in tests).
 */
class SourceContextUpdateTest {
  private static final Scope CHAT = Scope.user("chat");

  /** Plans the next inferred add. */
  private final ScriptedInference scripted = new ScriptedInference();

  private Memory memory;

  @BeforeEach
  void open() {
    memory =
        Engram.builder()
            .storage(InMemoryStorage.create())
            .embedder(new HashEmbedder())
            .inference(scripted)
            .build();
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private String contextOf(String id) {
    return memory
        .exportRecords(ExportRequest.of(CHAT))
        .filter(r -> r.id().equals(id))
        .findFirst()
        .orElseThrow()
        .context();
  }

  private String addVerbatim(String sourceId, String text) {
    return memory
        .add(
            AddRequest.builder(CHAT)
                .message(new Message(Role.USER, text, "ana", null, sourceId))
                .infer(false)
                .build())
        .events()
        .get(0)
        .id();
  }

  @Test
  void anInferenceUpdateTakesTheExchangeThatChangedTheFact() {
    addVerbatim("d1:1", "Where do you live?");
    String porto = addVerbatim("d1:2", "I live in Porto");
    assertThat(contextOf(porto)).isEqualTo("Where do you live?");
    addVerbatim("d2:1", "Any news?");
    scripted.next(new MemoryInference.Update(porto, "Ana lives in Lisbon"));
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, "I moved to Lisbon last month", "ana", null, "d2:2"))
            .build());
    assertThat(memory.get(porto).orElseThrow().text()).isEqualTo("Ana lives in Lisbon");
    assertThat(contextOf(porto)).isEqualTo("Any news?\nI moved to Lisbon last month");
  }

  @Test
  void aTextUpdateThroughTheApiClearsItAndAMetadataUpdateKeepsIt() {
    addVerbatim("d1:1", "Where do you live?");
    String porto = addVerbatim("d1:2", "I live in Porto");
    memory.update(porto, MemoryUpdate.metadata(Map.of("checked", true)));
    assertThat(contextOf(porto)).isEqualTo("Where do you live?");
    memory.update(porto, MemoryUpdate.text("I live in Lisbon"));
    assertThat(contextOf(porto)).isEmpty();
  }
}
