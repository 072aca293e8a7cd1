package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.DimensionMismatchException;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The storage contract: the whole public {@link Memory} API on a real backend, as every backend
 * must pass it. A backend adds one small subclass that implements {@link #openStorage(Path, int)}
 * and {@link #damageIndex(Path)}.
 *
 * <p>The suite is split by subject into a chain of abstract classes, each extending the previous
 * one: {@link ContractSupport} (fixture), {@link AddContract}, {@link SearchContract}, {@link
 * ChangeContract}, {@link ValidationContract}, {@link ConcurrencyContract}, {@link
 * TransferContract}, and this class (persistence across reopen, index rebuild, embedder mismatch,
 * closing).
 */
public abstract class MemoryContractTest extends TransferContract {

  @Test
  void everythingSurvivesAReopen() {
    String kept =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("I play the cello")
                    .metadata(Map.of("stars", 4))
                    .expiration(TODAY.plusDays(10))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    String updated = addVerbatim(ALICE, "my favourite colour is green");
    memory.update(updated, MemoryUpdate.text("my favourite colour is purple"));
    String deleted = addVerbatim(ALICE, "this one is deleted");
    memory.delete(deleted);
    String bob = addVerbatim(BOB, "bob keeps bees");
    String acme =
        memory
            .forTenant("acme")
            .add(AddRequest.builder(ALICE).user("acme cello lessons").infer(false).build())
            .events()
            .get(0)
            .id();
    Map<String, MemoryItem> before = new LinkedHashMap<>();
    Map<String, List<HistoryEntry>> history = new LinkedHashMap<>();
    for (String id : List.of(kept, updated, deleted, bob)) {
      memory.get(id).ifPresent(m -> before.put(id, m));
      history.put(id, memory.history(id));
    }
    List<MemoryItem> listed = memory.list(ListRequest.of(ALICE)).items();

    reopen();

    for (Map.Entry<String, MemoryItem> e : before.entrySet()) {
      assertThat(memory.get(e.getKey())).contains(e.getValue());
    }
    assertThat(memory.get(deleted)).isEmpty();
    history.forEach((id, h) -> assertThat(memory.history(id)).isEqualTo(h));
    assertThat(memory.list(ListRequest.of(ALICE)).items()).isEqualTo(listed);
    assertThat(search(ALICE, "cello")).first().isEqualTo(kept);
    assertThat(search(ALICE, "purple")).first().isEqualTo(updated);
    assertThat(search(ALICE, "deleted")).doesNotContain(deleted);
    assertThat(search(BOB, "bees")).containsExactly(bob);
    assertThat(memory.forTenant("acme").get(acme)).isPresent();
    String next = addVerbatim(ALICE, "added after the reopen");
    assertThat(memory.history(next).get(0).seq()).isGreaterThan(history.get(deleted).get(1).seq());
  }

  @Test
  void aDamagedIndexIsRebuiltFromTheRecord() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ids.add(addVerbatim(i % 2 == 0 ? ALICE : BOB, "fact number token" + i + " about something"));
    }
    memory.delete(ids.get(0));
    memory.update(ids.get(1), MemoryUpdate.text("fact number tokenupdated about something else"));
    memory.close();
    memory = null;

    damageIndex(dir);
    memory = open(b -> {});

    assertThat(storage.index().state().documents()).isEqualTo(39);
    assertThat(search(ALICE, "token0")).doesNotContain(ids.get(0));
    assertThat(search(BOB, "tokenupdated")).first().isEqualTo(ids.get(1));
    for (int i = 2; i < 40; i++) {
      Scope scope = i % 2 == 0 ? ALICE : BOB;
      assertThat(search(scope, "token" + i)).as("token%d", i).first().isEqualTo(ids.get(i));
    }
  }

  @Test
  void anotherEmbeddingDimensionIsRefusedAtOpen() {
    String id = addVerbatim(ALICE, "a memory embedded with 64 dimensions");
    memory.close();
    memory = null;

    assertThatThrownBy(() -> open(new HashEmbedder(32, "test-hash-32"), b -> {}))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("64-dimensional")
        .hasMessageContaining("32-dimensional")
        .hasMessageContaining("'test-hash-64'");

    memory = open(b -> {});
    assertThat(memory.get(id)).isPresent();
    assertThat(search(ALICE, "embedded")).containsExactly(id);
  }

  @Test
  void anotherEmbeddingModelIsRefusedAtOpen() {
    String id = addVerbatim(ALICE, "a memory embedded by one model");
    memory.close();
    memory = null;

    assertThatThrownBy(() -> open(new HashEmbedder(64, "other-model-64"), b -> {}))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("'test-hash-64'")
        .hasMessageContaining("'other-model-64'");

    memory = open(b -> {});
    assertThat(search(ALICE, "model")).containsExactly(id);
  }

  @Test
  void aClosedMemoryRefusesCalls() {
    Memory closed = memory;
    memory.close();
    memory = null;
    closed.close();
    assertThatThrownBy(() -> closed.get("some-id")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> closed.add(AddRequest.builder(ALICE).user("late").build()))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> closed.search(SearchRequest.builder(ALICE, "late").build()))
        .isInstanceOf(IllegalStateException.class);
    memory = open(b -> {});
    assertThat(total(ALICE)).isZero();
  }
}
