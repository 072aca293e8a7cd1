package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchRecords}: one search reads each record from the store at most once, the ranking
 * steps and the choice of hits sharing the reads (the in-memory reference store, every {@code
 * getAll} and {@code metadata} call recorded).
 */
class SearchRecordsTest {
  private static final Scope CHAT = Scope.user("chat");
  private final List<List<String>> reads = new ArrayList<>();
  private final List<List<String>> metadataReads = new ArrayList<>();
  private InMemoryStorage storage;
  private MemoryStore records;
  private Memory memory;

  @BeforeEach
  void open() {
    storage = InMemoryStorage.create();
    MemoryStore real = storage.records();
    records =
        (MemoryStore)
            Proxy.newProxyInstance(
                MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("getAll")) {
                    @SuppressWarnings("unchecked")
                    Collection<String> ids = (Collection<String>) args[1];
                    reads.add(List.copyOf(ids));
                  } else if (method.getName().equals("metadata")) {
                    @SuppressWarnings("unchecked")
                    Collection<String> ids = (Collection<String>) args[1];
                    metadataReads.add(List.copyOf(ids));
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    Storage counted =
        new Storage() {
          @Override
          public MemoryStore records() {
            return records;
          }

          @Override
          public SearchIndex index() {
            return storage.index();
          }

          @Override
          public void close() {
            storage.close();
          }
        };
    memory = Engram.builder().storage(counted).embedder(new HashEmbedder()).build();
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private void say(String sourceId, String text) {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, text, "speaker", t, sourceId))
            .infer(false)
            .timestamp(t)
            .build());
  }

  private void conversation() {
    String[] turns = {
      "the weather was grey and wet",
      "coffee tastes better with oat milk",
      "my cousin bought a red bicycle",
      "trains were late again this morning",
      "guess which instrument she started learning",
      "the cello, lessons every tuesday",
      "we painted the kitchen yellow",
      "the cat sleeps on the sofa all day",
      "new shoes hurt my feet",
      "dinner was pasta with tomatoes",
      "she wants a cello of her own",
      "the orchestra plays in june"
    };
    for (int i = 0; i < turns.length; i++) {
      say("s1:" + (i + 1), turns[i]);
    }
  }

  private List<SearchHit> search(Ranking ranking) {
    return memory
        .search(
            SearchRequest.builder(CHAT, "which instrument is she learning")
                .maxTokens(60)
                .ranking(ranking)
                .build())
        .hits();
  }

  @Test
  void aSearchWithEveryStepReadsEachRecordOnce() {
    conversation();
    reads.clear();
    List<SearchHit> hits = search(Ranking.ALL.withHubs(false).withPassages(false).withFacts(false));
    assertThat(hits).isNotEmpty();
    // the neighbours' anchors, the memories near them and the feedback's best hits are read before
    // the hits are chosen; every id reaches the store once
    assertThat(reads.size()).isGreaterThanOrEqualTo(2);
    List<String> all = reads.stream().flatMap(List::stream).toList();
    assertThat(all).doesNotHaveDuplicates();
    assertThat(all).containsAll(hits.stream().map(h -> h.memory().id()).toList());
    // with hubs too: the step reads the dense list's memories whose densities it computes, through
    // the same records
    reads.clear();
    hits = search(Ranking.ALL);
    all = reads.stream().flatMap(List::stream).toList();
    assertThat(all)
        .doesNotHaveDuplicates()
        .containsAll(hits.stream().map(h -> h.memory().id()).toList());
    // with passages and facts: the first reads the keyword candidates' metadata alone with the
    // keyword list (while the query may still be embedded), then the other fused candidates'; the
    // second reads none again; the records read are still read once each
    reads.clear();
    metadataReads.clear();
    hits = search(Ranking.NONE.withPassages(true).withFacts(true).withNeighbours(true));
    assertThat(metadataReads).hasSizeBetween(1, 2);
    assertThat(metadataReads.stream().flatMap(List::stream).toList())
        .doesNotHaveDuplicates()
        .containsAll(hits.stream().map(h -> h.memory().id()).toList());
    all = reads.stream().flatMap(List::stream).toList();
    assertThat(all)
        .doesNotHaveDuplicates()
        .containsAll(hits.stream().map(h -> h.memory().id()).toList());
  }

  @Test
  void getAnswersInTheAskedOrderAndReadsOnlyWhatItHasNotRead() {
    conversation();
    List<String> ids =
        memory.list(ListRequest.of(CHAT)).items().stream().map(MemoryItem::id).toList();
    String tenant = "default";
    SearchRecords shared = new SearchRecords(records, tenant);
    reads.clear();
    List<String> first = List.of(ids.get(3), ids.get(0), "no-such-id", ids.get(5));
    assertThat(shared.get(first).stream().map(StoredMemory::id))
        .containsExactly(ids.get(3), ids.get(0), ids.get(5));
    List<String> second = List.of(ids.get(5), ids.get(1), "no-such-id", ids.get(3));
    assertThat(shared.get(second).stream().map(StoredMemory::id))
        .containsExactly(ids.get(5), ids.get(1), ids.get(3));
    assertThat(reads).containsExactly(first, List.of(ids.get(1)));
    assertThat(shared.get(List.of(ids.get(0), "no-such-id")))
        .extracting(StoredMemory::id)
        .containsExactly(ids.get(0));
    assertThat(reads).hasSize(2); // all known: nothing read, the missing id remembered as missing
    // the records are the store's own
    assertThat(shared.get(List.of(ids.get(2))).get(0).item())
        .isEqualTo(records.getAll(tenant, List.of(ids.get(2))).get(0).item());
  }

  @Test
  void metadataComesFromWhatWasReadAndReadsOnlyTheRestAndAloneWhatItReads() {
    conversation();
    List<String> ids =
        memory.list(ListRequest.of(CHAT)).items().stream().map(MemoryItem::id).toList();
    SearchRecords shared = new SearchRecords(records, "default");
    shared.get(List.of(ids.get(0)));
    reads.clear();
    List<String> asked = List.of(ids.get(0), ids.get(1), "no-such-id", ids.get(2));
    assertThat(shared.metadata(asked)).containsOnlyKeys(ids.get(0), ids.get(1), ids.get(2));
    assertThat(metadataReads).containsExactly(List.of(ids.get(1), "no-such-id", ids.get(2)));
    assertThat(shared.metadata(asked)).hasSize(3);
    assertThat(metadataReads).hasSize(1); // known, and the missing id remembered as missing
    assertThat(shared.get(asked)).hasSize(3); // a whole record is still read when asked for
    assertThat(reads).containsExactly(List.of(ids.get(1), ids.get(2)));
    assertThat(shared.metadata(List.of(ids.get(1))).get(ids.get(1)))
        .isEqualTo(records.getAll("default", List.of(ids.get(1))).get(0).item().metadata());
  }
}
