package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ExportRequest;
import dev.engram.Memory;
import dev.engram.MemoryRecord;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.extract.OfflineExtractor;
import dev.engram.spi.ForwardingEmbedder;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.ScriptedInference;
import dev.engram.testing.TopicEmbedder;
import dev.engram.text.SymbolFolding;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Context embeddings ({@link Engram.Builder#contextEmbeddings}): a memory's source context is
 * embedded (once for all the memories that share it), added to the memory's own embedding ({@link
 * ContextVectors}), kept with the memory and searched by the context step, so a fact is found
 * through the conversation before it when the query shares no word with either. The embedder is a
 * synonym-aware fake ({@link TopicEmbedder}) and the inference is scripted (no model runs in
 * tests).
 */
class ContextEmbeddingsTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final TopicEmbedder EMBEDDER =
      new TopicEmbedder(
          Map.of("holiday", 0, "vacation", 0, "summer", 0, "adoption", 1, "agencies", 1, "bike", 2),
          4);
  private static final String ASKED = "What are your holiday plans?";
  private static final String ANSWER = "Researching adoption agencies";

  /** Plans the next inferred add. */
  private final ScriptedInference scripted = new ScriptedInference();

  /** The memory the helpers add to and search. */
  private Memory current;

  /**
   * The engine under test, on RRF: these tests show the context embeddings' list lifting a memory
   * by its rank, which the hashing fake's cosines would otherwise outweigh under the default cosine
   * fusion.
   */
  private Memory open(Storage storage, boolean contextEmbeddings) {
    return Engram.builder()
        .fusion(dev.engram.Fusion.RRF)
        .storage(storage)
        .embedder(EMBEDDER)
        .inference(scripted)
        .contextEmbeddings(contextEmbeddings)
        .build();
  }

  /**
   * One inferred add of {@code messages} (source ids d1:1, d1:2, ...) whose plan adds {@code fact}
   * from the last.
   */
  private String addFact(String session, String fact, String... messages) {
    AddRequest.Builder b = AddRequest.builder(CHAT);
    for (int i = 0; i < messages.length; i++) {
      b.message(new Message(Role.USER, messages[i], "ana", null, session + ":" + (i + 1)));
    }
    scripted.next(
        new MemoryInference.Add(
            fact, "ana", Role.USER, null, List.of(session + ":" + messages.length)));
    return memoryOf(b.build());
  }

  private String memoryOf(AddRequest request) {
    return current.add(request).events().get(0).id();
  }

  /** The ids of the memories one add of {@code request} wrote, in its events' order. */
  /** {@link #EMBEDDER}, adding each text it is given for a document to {@code embedded}. */
  private static dev.engram.spi.Embedder recording(List<String> embedded) {
    return new ForwardingEmbedder(EMBEDDER) {
      @Override
      public List<float[]> embedDocuments(List<String> texts) {
        embedded.addAll(texts);
        return delegate.embedDocuments(texts);
      }
    };
  }

  private static List<String> addedIds(Memory memory, AddRequest request) {
    return memory.add(request).events().stream().map(e -> e.id()).toList();
  }

  /**
   * The bike memory (no context: its add has nothing before it) and the answer (after the question
   * it answers).
   */
  private String[] twoFacts() {
    String bike =
        addFact("d0", "Bought a new bike for the summer", "Bought a new bike for the summer");
    String answer = addFact("d1", ANSWER, ASKED, ANSWER);
    return new String[] {bike, answer};
  }

  private String best(String query) {
    return current
        .search(SearchRequest.builder(CHAT, query).topK(1).build())
        .hits()
        .get(0)
        .memory()
        .id();
  }

  private Map<String, Double> scores(String query, dev.engram.Ranking ranking) {
    Map<String, Double> out = new java.util.HashMap<>();
    current
        .search(SearchRequest.builder(CHAT, query).topK(10).ranking(ranking).build())
        .hits()
        .forEach(h -> out.put(h.memory().id(), h.score()));
    return out;
  }

  @Test
  void aFactIsFoundThroughTheQuestionBeforeItWhenTheQueryNamesNeither() throws Exception {
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory = open(storage, true)) {
      current = memory;
      String[] ids = twoFacts();
      // "vacation" is in no text and no context: the keyword signals find nothing, the bike's own
      // vector leads
      assertThat(best("vacation")).isEqualTo(ids[1]);
      StoredMemory answer = storage.records().get("default", ids[1]).orElseThrow();
      assertThat(answer.context()).isEqualTo(ASKED);
      // the question's topic plus half the answer's own, normalised: (1, 0.5) / sqrt 1.25
      assertThat(answer.contextEmbedding())
          .containsExactly(
              ContextVectors.sum(
                  EMBEDDER.embedDocuments(List.of(ASKED)).get(0),
                  EMBEDDER.embedDocuments(List.of(ANSWER)).get(0)));
      assertThat(storage.records().get("default", ids[0]).orElseThrow().contextEmbedding())
          .isEmpty();
      // relevance: the answer's own vector is orthogonal to the query, its context embedding is not
      // (1/sqrt 1.25); the best own relevance of the search, it takes no support on top (support
      // only raises a hit towards the best own relevance)
      Map<String, Double> scores = scores("vacation", dev.engram.Ranking.DEFAULT);
      // (relevances through the embedder's calibration: here the fallback on floor 0)
      dev.engram.spi.RelevanceCalibration map = EMBEDDER.relevanceCalibration();
      assertThat(scores.get(ids[1]))
          .isCloseTo(
              map.probability(1 / Math.sqrt(1.25)), org.assertj.core.data.Offset.offset(1e-6));
      assertThat(scores.get(ids[0]))
          .isCloseTo(map.probability(1 / Math.sqrt(2)), org.assertj.core.data.Offset.offset(1e-6));
      assertThat(scores("vacation", dev.engram.Ranking.NONE).get(ids[1]))
          .as("without the context step: its own relevance and support only")
          .isGreaterThan(map.probability(0))
          .isLessThanOrEqualTo(map.probability(0) + dev.engram.SearchHit.MAX_SUPPORT + 1e-9);
    }
    try (Memory memory = open(InMemoryStorage.create(), false)) {
      current = memory;
      String[] ids = twoFacts();
      assertThat(best("vacation")).as("without context embeddings").isEqualTo(ids[0]);
    }
  }

  @Test
  void aFactFromALongMessageEmbedsThePassageThatHoldsItAsItsWords() throws Exception {
    List<String> embedded = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.engram.spi.Embedder recording = recording(embedded);
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory =
        Engram.builder()
            .storage(storage)
            .embedder(recording)
            .inference(scripted)
            .contextEmbeddings(true)
            .contextPassageTokens(30)
            .build()) {
      current = memory;
      String opening = "We compared bike routes through the hills and the river valley. ".repeat(8);
      String ending = "Then we talked about the **summer** and the `adoption` agencies we called.";
      String message = opening + "\n\n" + ending;
      scripted.next(
          new MemoryInference.Add(
              "Ana called adoption agencies", "ana", Role.USER, null, List.of("d1:1")),
          new MemoryInference.Add(
              "Ana plans a summer adoption", "ana", Role.USER, null, List.of("d1:1")));
      List<String> ids =
          addedIds(
              memory,
              AddRequest.builder(CHAT)
                  .message(new Message(Role.USER, message, "ana", null, "d1:1"))
                  .build());
      assertThat(ids).hasSize(2);
      List<dev.engram.text.Passage> passages =
          dev.engram.text.Passages.split(message, 30, dev.engram.TokenCounter.cl100k());
      String last = passages.get(passages.size() - 1).text();
      assertThat(last).endsWith(ending).doesNotContain(opening);
      // the passage reaches the embedder as its words, once for both facts
      String words = SymbolFolding.fold(last);
      assertThat(words).endsWith("the   summer   and the  adoption  agencies we called.");
      assertThat(embedded).containsOnlyOnce(words).doesNotContain(last);
      float[] passageVector = EMBEDDER.embedDocuments(List.of(words)).get(0);
      for (String id : ids) {
        StoredMemory m = storage.records().get("default", id).orElseThrow();
        // the passage that holds the fact, as written, not the message's opening, and its one
        // embedding
        assertThat(m.context()).isEqualTo(last);
        assertThat(m.contextEmbedding()).containsExactly(passageVector);
      }
    }
  }

  /**
   * The offline extractor keeps a user's request with the statement it opens with, unless the
   * engine gives memories context embeddings, whose context holds the request.
   */
  @Test
  void theOfflineExtractorKeepsARequestUnlessContextEmbeddingsHoldIt() throws Exception {
    String asked = "I moved our billing service to Java 21, can you list the risks?";
    for (boolean contextEmbeddings : new boolean[] {false, true}) {
      try (Memory memory =
          Engram.builder()
              .storage(InMemoryStorage.create())
              .embedder(EMBEDDER)
              .inference(OfflineExtractor.create())
              .contextEmbeddings(contextEmbeddings)
              .build()) {
        List<String> texts =
            memory
                .add(
                    AddRequest.builder(CHAT)
                        .message(new Message(Role.USER, asked, null, null, "d1:1"))
                        .build())
                .events()
                .stream()
                .map(e -> e.memory())
                .toList();

        assertThat(texts)
            .containsExactly(
                contextEmbeddings
                    ? "I moved our billing service to Java 21."
                    : "I moved our billing service to Java 21, can you list the risks?");
      }
    }
  }

  @Test
  void theFactsOfOneMessageShareOneEmbeddingOfTheirContext() throws Exception {
    List<String> embedded = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.engram.spi.Embedder recording = recording(embedded);
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory =
        Engram.builder()
            .storage(storage)
            .embedder(recording)
            .inference(scripted)
            .contextEmbeddings(true)
            .build()) {
      scripted.next(
          new MemoryInference.Add(
              "Ana researches adoption agencies", "ana", Role.USER, null, List.of("d1:2")),
          new MemoryInference.Add(
              "Ana plans a summer holiday", "ana", Role.USER, null, List.of("d1:2")));
      List<String> ids =
          addedIds(
              memory,
              AddRequest.builder(CHAT)
                  .message(new Message(Role.USER, ASKED, "ana", null, "d1:1"))
                  .message(
                      new Message(
                          Role.USER,
                          "Researching adoption agencies, and a summer holiday",
                          "ana",
                          null,
                          "d1:2"))
                  .build());
      assertThat(ids).hasSize(2);
      String context = ASKED + "\nResearching adoption agencies, and a summer holiday";
      // two memory texts and their one context: three texts, not four
      assertThat(embedded)
          .containsExactly(
              "Ana researches adoption agencies", "Ana plans a summer holiday", context);
      float[] contextVector = EMBEDDER.embedDocuments(List.of(context)).get(0);
      for (String id : ids) {
        StoredMemory m = storage.records().get("default", id).orElseThrow();
        assertThat(m.context()).isEqualTo(context);
        assertThat(m.contextEmbedding())
            .containsExactly(
                ContextVectors.sum(contextVector, m.embedding()),
                org.assertj.core.data.Offset.offset(1e-6f));
      }
      assertThat(storage.records().get("default", ids.get(0)).orElseThrow().contextEmbedding())
          .isNotEqualTo(
              storage.records().get("default", ids.get(1)).orElseThrow().contextEmbedding());
    }
  }

  @Test
  void anUpdateKeepsOrRedoesTheContextEmbeddingAsItDoesTheContext() throws Exception {
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory = open(storage, true)) {
      current = memory;
      String answer = twoFacts()[1];
      MemoryStore records = storage.records();
      memory.update(answer, MemoryUpdate.metadata(Map.of("checked", true)));
      assertThat(records.get("default", answer).orElseThrow().contextEmbedding()).isNotEmpty();

      scripted.next(new MemoryInference.Update(answer, "Ana chose an adoption agency"));
      memoryOf(
          AddRequest.builder(CHAT)
              .message(new Message(Role.USER, "Any vacation news?", "ana", null, "d2:1"))
              .message(new Message(Role.USER, "We chose an agency", "ana", null, "d2:2"))
              .build());
      StoredMemory updated = records.get("default", answer).orElseThrow();
      // the exchange that changed it, after the window's last message
      assertThat(updated.context()).isEqualTo(ANSWER + "\nAny vacation news?\nWe chose an agency");
      assertThat(updated.contextEmbedding())
          .containsExactly(
              ContextVectors.sum(
                  EMBEDDER.embedDocuments(List.of(updated.context())).get(0),
                  EMBEDDER.embedDocuments(List.of("Ana chose an adoption agency")).get(0)));

      memory.update(answer, MemoryUpdate.text("Ana adopted a dog"));
      StoredMemory rewritten = records.get("default", answer).orElseThrow();
      assertThat(rewritten.context()).isEmpty();
      assertThat(rewritten.contextEmbedding()).isEmpty();
    }
  }

  @Test
  void anImportEmbedsTheRecordsContextsWhenContextEmbeddingsAreOn() throws Exception {
    List<MemoryRecord> records;
    try (Memory memory = open(InMemoryStorage.create(), true)) {
      current = memory;
      twoFacts();
      records = memory.exportRecords(ExportRequest.of(CHAT)).toList();
    }
    InMemoryStorage on = InMemoryStorage.create();
    try (Memory memory = open(on, true)) {
      memory.importRecords(records);
      current = memory;
      String answer =
          records.stream().filter(r -> r.context().equals(ASKED)).findFirst().orElseThrow().id();
      StoredMemory imported = on.records().get("default", answer).orElseThrow();
      assertThat(imported.contextEmbedding())
          .containsExactly(
              ContextVectors.sum(
                  EMBEDDER.embedDocuments(List.of(ASKED)).get(0), imported.embedding()));
      assertThat(best("vacation")).isEqualTo(answer);
    }
    InMemoryStorage off = InMemoryStorage.create();
    try (Memory memory = open(off, false)) {
      memory.importRecords(records);
      off.records().forEach(m -> assertThat(m.contextEmbedding()).as(m.item().text()).isEmpty());
    }
  }

  @Test
  void theBuilderRefusesThemWithoutSourceContextsOrWithAnIndexThatDropsThem() {
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(InMemoryStorage.create())
                    .embedder(EMBEDDER)
                    .sourceContext(false)
                    .contextEmbeddings(true)
                    .build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("contextEmbeddings"))
        .hasMessageContaining("needs sourceContext");
    InMemoryStorage plain = InMemoryStorage.create();
    Storage withoutThem =
        new Storage() {
          private final SearchIndex index = new WithoutContextEmbeddings(plain.index());

          @Override
          public MemoryStore records() {
            return plain.records();
          }

          @Override
          public SearchIndex index() {
            return index;
          }

          @Override
          public void close() throws java.io.IOException {
            plain.close();
          }
        };
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(withoutThem)
                    .embedder(EMBEDDER)
                    .contextEmbeddings(true)
                    .build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("contextEmbeddings"))
        .hasMessageContaining("(WithoutContextEmbeddings) does not keep context embeddings");
  }

  /**
   * An index that keeps no context embeddings (the SPI's default {@link SearchIndex#denseFields}),
   * over the reference index.
   */
  private static final class WithoutContextEmbeddings implements SearchIndex {
    private final SearchIndex index;

    WithoutContextEmbeddings(SearchIndex index) {
      this.index = index;
    }

    @Override
    public IndexState state() {
      return index.state();
    }

    @Override
    public void apply(List<IndexOp> ops, long seq, long generation) {
      index.apply(ops, seq, generation);
    }

    @Override
    public void clear(long generation) {
      index.clear(generation);
    }

    @Override
    public void commit() {
      index.commit();
    }

    @Override
    public List<Candidate> dense(IndexQuery query, IndexField field, float[] vector, int k) {
      return field == IndexField.TEXT ? index.dense(query, field, vector, k) : List.of();
    }

    @Override
    public List<Candidate> keyword(IndexQuery query, IndexField field, String text, int k) {
      return index.keyword(query, field, text, k);
    }

    @Override
    public void close() throws java.io.IOException {
      index.close();
    }
  }
}
