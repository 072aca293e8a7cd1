package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.spi.Embedder;
import dev.engram.spi.Storage;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of the storage contract suite ({@link MemoryContractTest}): a {@link Memory} on the
 * backend under test with the {@link HashEmbedder} and a {@link TickingClock}, opened fresh in a
 * temporary directory for every test. Backends implement {@link #openStorage} and {@link
 * #damageIndex}.
 */
public abstract class ContractSupport {
  /** The dimension of the default {@link HashEmbedder}. */
  protected static final int DIMENSION = 64;

  /** The day of {@link TickingClock#START}: what the engine calls "today" in these tests. */
  protected static final LocalDate TODAY = LocalDate.of(2024, 5, 1);

  protected static final Scope ALICE = Scope.user("alice");
  protected static final Scope BOB = Scope.user("bob");

  @TempDir protected Path dir;

  protected TickingClock clock;
  protected Storage storage;
  protected Memory memory;

  /** Opens the backend's storage in {@code dir} for embeddings of {@code dimension} floats. */
  protected abstract Storage openStorage(Path dir, int dimension);

  /**
   * Damages the derived search index of the (closed) storage in {@code dir}, for example by
   * deleting its directory, so that the next open must rebuild it from the record.
   */
  protected abstract void damageIndex(Path dir);

  @BeforeEach
  void openMemory() {
    clock = new TickingClock();
    memory = open(b -> {});
  }

  @AfterEach
  void closeMemory() {
    if (memory != null) {
      memory.close();
      memory = null;
    }
  }

  /**
   * Opens a Memory on fresh storage in {@code dir}, with the test defaults and then {@code
   * customizer}.
   */
  protected Memory open(Consumer<Engram.Builder> customizer) {
    return open(new HashEmbedder(), customizer);
  }

  protected Memory open(Embedder embedder, Consumer<Engram.Builder> customizer) {
    storage = openStorage(dir, embedder.dimension());
    Engram.Builder b = Engram.builder().storage(storage).embedder(embedder).clock(clock);
    customizer.accept(b);
    return b.build(); // if this throws, the engine has closed the storage
  }

  /** Closes the memory and opens it again on the same directory. */
  protected void reopen() {
    memory.close();
    memory = null;
    memory = open(b -> {});
  }

  /** Stores one user message verbatim and returns the new memory's id. */
  protected String addVerbatim(Scope scope, String text) {
    AddResult r = memory.add(AddRequest.builder(scope).user(text).infer(false).build());
    assertThat(r.events()).hasSize(1);
    MemoryEvent e = r.events().get(0);
    assertThat(e.event()).isEqualTo(EventType.ADD);
    return e.id();
  }

  protected List<String> search(Scope scope, String query) {
    return ids(memory.search(SearchRequest.builder(scope, query).build()).hits());
  }

  protected static List<String> ids(List<SearchHit> hits) {
    return hits.stream().map(h -> h.memory().id()).toList();
  }

  /** Texts of a scope's memories, newest first (first page of 1000, expired ones included). */
  protected List<String> texts(Scope scope) {
    return memory
        .list(ListRequest.of(scope).withPage(0, 1000).withIncludeExpired(true))
        .items()
        .stream()
        .map(MemoryItem::text)
        .toList();
  }

  protected long total(Scope scope) {
    Page<MemoryItem> p = memory.list(ListRequest.of(scope).withIncludeExpired(true));
    return p.total();
  }

  /** How many memories the record holds in all tenants. */
  protected long storedCount() {
    return storage.records().count();
  }
}
