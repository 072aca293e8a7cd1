package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ExportRequest;
import dev.engram.ImportResult;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain-array path's embedding cache across processes: three stores on one schema of the real
 * PostgreSQL cluster, each with its own pool as separate processes would have. Every kind of write
 * goes through {@code writer} (cache on); after each one, {@code reader} (cache on, warmed by
 * searching before the write, so it holds the previous versions) must return exactly what {@code
 * truth} (cache off: cosines in SQL) returns for the same dense search: the same ids in the same
 * order with the same scores. Also: the cache never lends one tenant's or scope's rows to another,
 * even for memories with the same id in two tenants.
 */
class PostgresEmbeddingCacheTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Scope BOB = Scope.user("bob");
  private static final Scope ALICE_AT_WORK = Scope.of("alice", "work-agent", null);
  private static final List<String> QUERIES =
      List.of(
          "cello music lessons",
          "sister lives in Lisbon",
          "allergic to peanuts",
          "work as a nurse",
          "cat called Miso",
          "weekend hiking trip",
          "zzz unrelated words");
  private static final HashEmbedder EMBEDDER = new HashEmbedder();

  @TempDir Path dir;

  private PostgresStorage writerStorage;
  private PostgresStorage readerStorage;
  private PostgresStorage truthStorage;
  private Memory writer;
  private Memory reader;

  @BeforeEach
  void open() {
    PostgresSettings settings =
        PostgresCluster.get().settingsFor(dir).toBuilder().vectors(VectorMode.ARRAY).build();
    writerStorage = PostgresStorage.open(settings, EMBEDDER.dimension());
    readerStorage = PostgresStorage.open(settings, EMBEDDER.dimension());
    truthStorage =
        PostgresStorage.open(settings.toBuilder().vectorCacheMb(0).build(), EMBEDDER.dimension());
    writer = Engram.builder().storage(writerStorage).embedder(EMBEDDER).build();
    reader = Engram.builder().storage(readerStorage).embedder(EMBEDDER).build();
  }

  @AfterEach
  void close() {
    writer.close();
    reader.close();
    truthStorage.close();
  }

  @Test
  void theCacheIsOnlyOnThePlainArrayPathWhenConfigured() {
    assertThat(writerStorage.embeddingCache()).isPresent();
    assertThat(readerStorage.embeddingCache()).isPresent();
    assertThat(truthStorage.embeddingCache()).isEmpty();
    assertThat(PostgresStorage.cacheBudget(256, 4L << 30)).isEqualTo(256L << 20);
    assertThat(PostgresStorage.cacheBudget(256, 512L << 20)).isEqualTo(128L << 20);
  }

  @Test
  void aSecondInstanceSeesEveryKindOfWriteAtItsNextSearch() {
    List<String> alice = new ArrayList<>();
    for (String fact :
        List.of(
            "I take cello lessons on Mondays",
            "My sister lives in Lisbon now",
            "I am allergic to peanuts and shellfish",
            "I work as a nurse at night",
            "My cat is called Miso")) {
      alice.add(add(ALICE, fact, Map.of("topic", "life")));
    }
    String work = add(ALICE_AT_WORK, "At work I plan the nurse rota", Map.of("topic", "work"));
    List<String> bob = new ArrayList<>();
    for (String fact :
        List.of("Bob likes a weekend hiking trip", "Bob has a cat too", "Bob plays cello badly")) {
      bob.add(add(BOB, fact, Map.of("topic", "life")));
    }
    assertAgrees("after the first adds");
    assertThat(readerStorage.embeddingCache().orElseThrow().size())
        .as("the reader scored from its cache")
        .isGreaterThanOrEqualTo(alice.size() + 1 + bob.size());

    String added = add(ALICE, "I started a weekend hiking club", Map.of());
    assertAgrees("after an add");
    assertThat(ids(readerStorage, ALICE, "weekend hiking trip")).contains(added);

    List<String> batch =
        writer
            .addBatch(
                List.of(
                    AddRequest.builder(ALICE)
                        .user("Batch memory about cello repairs")
                        .infer(false)
                        .build(),
                    AddRequest.builder(BOB)
                        .user("Batch memory about Lisbon trams")
                        .infer(false)
                        .build()))
            .stream()
            .map(r -> r.events().get(0).id())
            .toList();
    assertAgrees("after a batch add");
    assertThat(ids(readerStorage, BOB, "Lisbon trams")).contains(batch.get(1));

    double before = score(truthStorage, ALICE, "cat called Miso", alice.get(4));
    writer.update(alice.get(4), "My dog is called Pepper");
    assertThat(score(truthStorage, ALICE, "cat called Miso", alice.get(4)))
        .as("the re-embedding changed the score")
        .isNotCloseTo(before, within(1e-6));
    assertAgrees("after a text update (re-embedded)");

    writer.update(alice.get(0), MemoryUpdate.metadata(Map.of("topic", "music")));
    assertAgrees("after a metadata update");
    assertThat(
            dense(readerStorage, query(ALICE, Filter.eq("topic", "music")), "cello music lessons"))
        .extracting(Candidate::id)
        .containsExactly(alice.get(0));

    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    writer.update(alice.get(1), MemoryUpdate.expiration(today));
    assertAgrees("after an expiration update");
    assertThat(ids(readerStorage, ALICE, "sister lives in Lisbon")).doesNotContain(alice.get(1));
    assertThat(writer.purgeExpired()).isEqualTo(1);
    assertAgrees("after purging expired memories");

    writer.delete(alice.get(2));
    assertAgrees("after a delete");
    assertThat(ids(readerStorage, ALICE, "allergic to peanuts")).doesNotContain(alice.get(2));

    assertThat(writer.deleteAll(BOB)).isEqualTo(bob.size() + 1);
    assertAgrees("after deleting a scope");
    assertThat(ids(readerStorage, BOB, "cat called Miso")).isEmpty();

    List<MemoryRecord> exported = writer.exportRecords(ExportRequest.of(ALICE)).toList();
    Memory otherTenant = writer.forTenant("other");
    ImportResult imported = otherTenant.importRecords(exported);
    assertThat(imported.skippedIds()).isEmpty();
    assertAgrees("after an import into another tenant");
    assertThat(
            dense(
                readerStorage,
                new IndexQuery("other", ALICE, Filter.all(), false, today),
                "cello music"))
        .extracting(Candidate::id)
        .containsExactlyInAnyOrderElementsOf(
            exported.stream().map(r -> r.memory().orElseThrow().id()).toList());

    writer.forTenant("other").reset();
    assertAgrees("after a reset of the other tenant");
    assertThat(
            dense(
                readerStorage,
                new IndexQuery("other", ALICE, Filter.all(), false, today),
                "cello music"))
        .isEmpty();

    assertThat(reader.search(SearchRequest.builder(ALICE, "dog called Pepper").build()).hits())
        .extracting(h -> h.memory().id())
        .first()
        .isEqualTo(alice.get(4));
    assertThat(work).isNotBlank();
  }

  @Test
  void theCacheNeverLendsRowsAcrossTenantsOrScopes() {
    String shared = add(ALICE, "I keep bees on the roof", Map.of());
    add(BOB, "Bob keeps bees in the garden", Map.of());
    add(ALICE_AT_WORK, "The office roof has bees", Map.of());
    // the same memory id in a second tenant, then given another text there (another embedding)
    Memory second = writer.forTenant("second");
    List<MemoryRecord> exported = writer.exportRecords(ExportRequest.of(ALICE)).toList();
    second.importRecords(exported);
    assertAgrees("after the import"); // the reader now caches both tenants' rows of the shared id
    second.update(shared, "Completely different words about violins");
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    for (PostgresStorage s : List.of(readerStorage, writerStorage)) {
      assertThat(score(s, ALICE, "bees on the roof", shared))
          .as("tenant default keeps its own embedding")
          .isCloseTo(score(truthStorage, ALICE, "bees on the roof", shared), within(1e-9));
      assertThat(
              dense(
                  s,
                  new IndexQuery("second", ALICE, Filter.all(), false, today),
                  "bees on the roof"))
          .filteredOn(c -> c.id().equals(shared))
          .singleElement()
          .satisfies(
              c ->
                  assertThat(c.score())
                      .isCloseTo(
                          scoreIn(truthStorage, "second", ALICE, "bees on the roof", shared),
                          within(1e-9)));
      for (Scope scope : List.of(ALICE, BOB, ALICE_AT_WORK, Scope.agent("work-agent"))) {
        List<String> inScope =
            writer.list(ListRequest.of(scope)).items().stream().map(MemoryItem::id).toList();
        assertThat(ids(s, scope, "bees"))
            .as("%s", scope)
            .containsExactlyInAnyOrderElementsOf(inScope);
      }
      assertThat(ids(s, ALICE, "bees")).hasSize(2).doesNotContainAnyElementsOf(ids(s, BOB, "bees"));
      assertThat(dense(s, new IndexQuery("nobody", ALICE, Filter.all(), false, today), "bees"))
          .isEmpty();
    }
    assertAgrees("across tenants");
  }

  /**
   * For every query, scope and tenant in use, the reader's and writer's cached results equal the
   * SQL path's.
   */
  private void assertAgrees(String when) {
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    for (String tenant : List.of(writer.tenant(), "other", "second")) {
      for (Scope scope : List.of(ALICE, BOB, ALICE_AT_WORK, Scope.agent("work-agent"))) {
        for (boolean expired : List.of(false, true)) {
          for (Filter filter : List.of(Filter.all(), Filter.eq("topic", "life"))) {
            IndexQuery q = new IndexQuery(tenant, scope, filter, expired, today);
            for (String text : QUERIES) {
              List<Candidate> truth = dense(truthStorage, q, text);
              for (PostgresStorage s : List.of(readerStorage, writerStorage)) {
                List<Candidate> got = dense(s, q, text);
                assertThat(got)
                    .as("%s: %s for %s", when, q, text)
                    .extracting(Candidate::id)
                    .containsExactlyElementsOf(truth.stream().map(Candidate::id).toList());
                for (int i = 0; i < got.size(); i++) {
                  assertThat(got.get(i).score())
                      .as("%s: score of %s", when, got.get(i).id())
                      .isCloseTo(truth.get(i).score(), within(1e-9));
                }
              }
            }
          }
        }
      }
    }
  }

  private String add(Scope scope, String text, Map<String, ?> metadata) {
    return writer
        .add(AddRequest.builder(scope).user(text).metadata(metadata).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  private IndexQuery query(Scope scope, Filter filter) {
    return new IndexQuery(writer.tenant(), scope, filter, false, LocalDate.now(ZoneOffset.UTC));
  }

  private static List<Candidate> dense(PostgresStorage s, IndexQuery q, String text) {
    return s.index().dense(q, IndexField.TEXT, EMBEDDER.embedQuery(text), 1000);
  }

  private List<String> ids(PostgresStorage s, Scope scope, String text) {
    return dense(s, query(scope, Filter.all()), text).stream().map(Candidate::id).toList();
  }

  private double score(PostgresStorage s, Scope scope, String text, String id) {
    return scoreIn(s, writer.tenant(), scope, text, id);
  }

  private static double scoreIn(
      PostgresStorage s, String tenant, Scope scope, String text, String id) {
    Optional<Candidate> hit =
        dense(
                s,
                new IndexQuery(tenant, scope, Filter.all(), false, LocalDate.now(ZoneOffset.UTC)),
                text)
            .stream()
            .filter(c -> c.id().equals(id))
            .findFirst();
    return hit.orElseThrow(() -> new AssertionError(id + " not found in " + tenant)).score();
  }
}
