package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.engine.VerbatimInference;
import dev.engram.extract.OfflineExtractor;
import dev.engram.spi.ForwardingEmbedder;
import dev.engram.spi.MemoryInference;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each mode stores in each scope layout, on the mini fixture. The offline extractor keeps, of
 * the seven turns (run once and checked against its rules): D1:1 "Hi Ben!" dropped as a greeting,
 * the rest rewritten to Ada; D1:2 "Congrats Ada!" dropped, "I started" rewritten to Ben; D1:3
 * dropped (an exclamation of two words and a question); D1:4 "Yes," dropped as filler, no first
 * person to rewrite; D2:1 "my" rewritten to "Ada's" and "yesterday" resolved against the session
 * date 12 April 2024; D2:2 dropped (reaction and question); D2:3 "Only a string." kept (two content
 * words, the default minimum), "I play" rewritten to "Ada plays".
 */
class ConversationStoreTest {
  static final List<List<Object>> EXTRACTED =
      List.of(
          List.of("Ada finally adopted a grey cat called Pixel.", "D1:1", "Ada"),
          List.of("Ben started a new job as a baker in Porto.", "D1:2", "Ben"),
          // a question whose statement is no fact is kept as said (issue 34: nothing said is lost)
          List.of("A baker! Do you bake sourdough bread every morning?", "D1:3", "Ada"),
          List.of("Sourdough and croissants, from five o'clock.", "D1:4", "Ben"),
          List.of(
              "Pixel knocked Ada's violin off the shelf yesterday (11 April 2024).", "D2:1", "Ada"),
          List.of("Only a string.", "D2:3", "Ada"),
          List.of("Ada plays in a quartet on Fridays.", "D2:3", "Ada"));

  private static final Conversation MINI = LocomoReader.read(LocomoReaderTest.fixture()).get(0);

  @TempDir Path work;

  private ConversationStore open(ScopeLayout layout, MemoryInference inference) {
    MemoryInference used = ConversationStore.ownFactsOnly(inference, MINI, layout);
    return ConversationStore.open(
        work.resolve(layout.label()),
        MINI,
        layout,
        new HashEmbedder(),
        Fusion.RRF,
        b -> b.inference(used));
  }

  @Test
  void extractModeStoresTheOfflineExtractorsFactsWithSpeakerDateAndDiaId() {
    for (int turnsPerAdd : new int[] {1, 2}) {
      try (ConversationStore store = open(ScopeLayout.CONVERSATION, OfflineExtractor.create())) {
        AtomicInteger turns = new AtomicInteger();
        store.ingest(turnsPerAdd, true, false, turns::addAndGet);
        assertThat(turns.get()).isEqualTo(7);
        List<MemoryItem> all = store.memories(Scope.user("mini-1"));
        assertThat(all)
            .extracting(MemoryItem::text, m -> m.sourceIds().get(0), MemoryItem::actorId)
            .as("turns per add %d", turnsPerAdd)
            .containsExactlyInAnyOrderElementsOf(
                EXTRACTED.stream().map(l -> tuple(l.toArray())).toList());
        assertThat(all)
            .filteredOn(m -> m.sourceIds().get(0).equals("D2:1"))
            .singleElement()
            .satisfies(m -> assertThat(m.eventTime()).hasToString("2024-04-12T18:40:00Z"));
        // D2:2 left nothing, so no search can find it (the benchmark's evidence_recall_store)
        assertThat(store.stored().sourceIds())
            .containsExactlyInAnyOrder("D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:3");
        assertThat(store.stored().memoryTokens())
            .isEqualTo(
                EXTRACTED.stream()
                    .mapToLong(l -> TokenCounter.cl100k().count((String) l.get(0)))
                    .sum());
      }
    }
  }

  @Test
  void speakerLayoutAddsEveryTurnToBothScopesWithSwappedRoles() {
    try (ConversationStore store = open(ScopeLayout.SPEAKER, new VerbatimInference())) {
      assertThat(store.scopes())
          .containsExactly(Scope.user("Ada_mini-1"), Scope.user("Ben_mini-1"));
      store.ingest(1, false, false, n -> {});
      List<MemoryItem> ada = store.memories(Scope.user("Ada_mini-1"));
      List<MemoryItem> ben = store.memories(Scope.user("Ben_mini-1"));
      assertThat(ada).hasSize(7);
      assertThat(ben).hasSize(7);
      assertThat(ada)
          .filteredOn(m -> m.sourceIds().equals(List.of("D1:2")))
          .singleElement()
          .satisfies(m -> assertThat(m.role()).isEqualTo(Role.ASSISTANT))
          .satisfies(m -> assertThat(m.actorId()).isEqualTo("Ben"));
      assertThat(ben)
          .filteredOn(m -> m.sourceIds().equals(List.of("D1:2")))
          .singleElement()
          .satisfies(m -> assertThat(m.role()).isEqualTo(Role.USER));
      // Both scopes hold the same seven turns; the merged top-k keeps one copy of each.
      List<SearchHit> hits = store.search("Pixel the cat", 10);
      assertThat(hits).hasSize(7);
      assertThat(hits).extracting(h -> h.memory().sourceIds().get(0)).doesNotHaveDuplicates();
      assertThat(store.search("Pixel the cat", 3)).hasSize(3);
      assertThat(hits).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));
    }
  }

  @Test
  void speakerLayoutKeepsEachSpeakersOwnExtractedFactsInTheirScope() {
    try (ConversationStore store = open(ScopeLayout.SPEAKER, OfflineExtractor.create())) {
      store.ingest(2, true, false, n -> {});
      assertThat(store.memories(Scope.user("Ada_mini-1")))
          .extracting(m -> m.sourceIds().get(0))
          .containsExactlyInAnyOrder("D1:1", "D1:3", "D2:1", "D2:3", "D2:3");
      assertThat(store.memories(Scope.user("Ben_mini-1")))
          .extracting(MemoryItem::text)
          .containsExactlyInAnyOrder(
              "Ben started a new job as a baker in Porto.",
              "Sourdough and croissants, from five o'clock.");
      assertThat(store.search("cat", 10)).hasSize(7);
    }
  }

  @Test
  void speakerLayoutReplaysEachSpeakersObservationsInTheirScope() {
    try (ConversationStore store =
        open(ScopeLayout.SPEAKER, new ObservationReplay(MINI.observations()))) {
      store.ingest(0, true, false, n -> {});
      assertThat(store.memories(Scope.user("Ada_mini-1")))
          .extracting(MemoryItem::text)
          .containsExactlyInAnyOrder(
              "Ada adopted a grey cat named Pixel.",
              "Ada's cat Pixel knocked her violin off the shelf; one string broke.",
              "Ada plays in a quartet on Fridays.");
      assertThat(store.memories(Scope.user("Ben_mini-1")))
          .singleElement()
          .satisfies(m -> assertThat(m.sourceIds()).containsExactly("D1:2", "D1:4"));
    }
  }

  @Test
  void aFailingSetupClosesTheStorageAndDeletesItsDirectory() {
    Path dir = work.resolve("failing");
    assertThatThrownBy(
            () ->
                ConversationStore.open(
                    dir,
                    MINI,
                    ScopeLayout.CONVERSATION,
                    new HashEmbedder(),
                    Fusion.RRF,
                    b -> {
                      throw new ValidationException("llm", "no key");
                    }))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("no key");
    assertThat(Files.exists(dir)).isFalse();
  }

  @Test
  void speakerIdsJoinNameAndSampleWithoutWhitespaceAndTheDirectoryIsDeletedOnClose() {
    assertThat(ConversationStore.speakerUserId("Mary Ann", "conv-7")).isEqualTo("Mary-Ann_conv-7");
    ConversationStore store = open(ScopeLayout.CONVERSATION, new VerbatimInference());
    assertThat(work.resolve("conversation")).isDirectory();
    store.close();
    assertThat(Files.exists(work.resolve("conversation"))).isFalse();
  }

  @Test
  void theWarmUpSearchesEveryQueryAndAtLeastItsMinimumInAll() {
    AtomicInteger queries = new AtomicInteger();
    ForwardingEmbedder counted =
        new ForwardingEmbedder(new HashEmbedder()) {
          @Override
          public float[] embedQuery(String text) {
            queries.incrementAndGet();
            return delegate.embedQuery(text);
          }
        };
    try (ConversationStore store =
        ConversationStore.open(
            work.resolve("warm"),
            MINI,
            ScopeLayout.CONVERSATION,
            counted,
            Fusion.RRF,
            b -> b.inference(new VerbatimInference()))) {
      store.ingest(1, false, false, n -> {});
      List<String> three =
          List.of("Who adopted a cat?", "Where does Ben work?", "What does Ada play?");

      assertThat(store.warmUp(three)).isEqualTo(501); // 167 passes of three
      assertThat(queries.get()).isEqualTo(501);
      List<String> many = Collections.nCopies(600, "Who adopted a cat?");
      assertThat(store.warmUp(many)).isEqualTo(600); // one pass, past the minimum
      assertThat(store.warmUp(List.of())).isZero();
    }
  }
}
