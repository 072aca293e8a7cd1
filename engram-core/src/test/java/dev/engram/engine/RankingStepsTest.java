package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.TopicEmbedder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ranking steps of {@link Ranking} through the engine, on the in-memory reference backend with
 * the hashing embedder: each step changes which memories a search returns as its description says.
 * engram-embedded runs the same tests on the real store (SQLite and Lucene) by overriding {@link
 * #storage}.
 */
class RankingStepsTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-05-15T12:00:00Z"), ZoneOffset.UTC);
  private Memory memory;

  /**
   * The storage the tests run on: the in-memory reference backend. {@code name} tells apart the
   * stores of one test (one opened with another embedder needs a store of its own).
   */
  Engram.Builder storage(Engram.Builder builder, String name) {
    return builder.storage(InMemoryStorage.create());
  }

  /** True if the storage has a graph store; the in-memory reference backend has none. */
  boolean hasGraph() {
    return false;
  }

  /**
   * Where the storage keeps no graph, the graph's tests check that instead of being skipped: a
   * memory configured with graph memory is refused when it is built, with a message that names the
   * storage.
   */
  private static void assertGraphRefused(ThrowingCallable openWithGraph) {
    assertThatThrownBy(openWithGraph)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("graph memory is configured, but the storage")
        .hasMessageContaining("has no graph store");
  }

  @BeforeEach
  void open() {
    // RRF: the steps' lists move candidates by rank; under the default cosine fusion the hashing
    // fake's cosines, which mean nothing, would decide
    memory =
        storage(Engram.builder(), "main")
            .fusion(dev.engram.Fusion.RRF)
            .embedder(new HashEmbedder())
            .clock(CLOCK)
            .build();
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private void say(String sourceId, String text, Instant at) {
    say("speaker", sourceId, text, at);
  }

  private void say(String speaker, String sourceId, String text, Instant at) {
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, text, speaker, at, sourceId))
            .infer(false)
            .timestamp(at)
            .build());
  }

  private List<String> sources(SearchRequest.Builder request) {
    List<String> out = new ArrayList<>();
    for (SearchHit h : memory.search(request.build()).hits()) {
      out.addAll(h.memory().sourceIds());
    }
    return out;
  }

  /**
   * A session whose turn s1:5 matches the question and is answered by s1:6, which shares no word
   * with it (nor do the other turns); s2:1 of a later session matches too.
   */
  private void conversation() {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    String[] filler = {
      "the weather was grey and wet",
      "coffee tastes better with oat milk",
      "my cousin bought a red bicycle",
      "trains were late again this morning",
      "",
      "",
      "we painted the kitchen yellow",
      "the cat sleeps on the sofa all day",
      "new shoes hurt my feet",
      "dinner was pasta with tomatoes"
    };
    for (int i = 1; i <= 10; i++) {
      Instant at = t.plusSeconds(60L * i); // each message at its own minute, as a chat records it
      if (i == 5) {
        say("s1:5", "guess which instrument she started learning", at);
      } else if (i == 6) {
        say("s1:6", "the cello, lessons every tuesday", at);
      } else {
        say("s1:" + i, filler[i - 1], at);
      }
    }
    say("s2:1", "which instrument does the orchestra need", t.plusSeconds(86_400));
  }

  private double fusedScore(Ranking ranking, String sourceId) {
    return fused(
        SearchRequest.builder(CHAT, QUESTION).topK(100).explain(true).ranking(ranking), sourceId);
  }

  private static final String QUESTION = "which instrument is she learning";

  @Test
  void theTurnsBesideTheBestHitFollowIt() {
    conversation();
    Ranking neighbours = Ranking.NONE.withNeighbours(true);
    assertThat(sources(SearchRequest.builder(CHAT, QUESTION).topK(4).ranking(neighbours)))
        .containsExactlyInAnyOrder("s1:5", "s2:1", "s1:4", "s1:6");
    // without the step the answer turn has only its dense rank among the turns sharing no word with
    // the question
    double anchor = fusedScore(Ranking.NONE, "s1:5");
    assertThat(fusedScore(Ranking.NONE, "s1:6"))
        .isLessThan(NeighboursStep.NEIGHBOUR_FACTOR * anchor);
    assertThat(fusedScore(neighbours, "s1:6")).isEqualTo(NeighboursStep.NEIGHBOUR_FACTOR * anchor);
  }

  @Test
  void theContextStepFindsTheAnswerThroughTheQuestionBeforeIt() {
    conversation();
    // s1:6 keeps the words of s1:5, the message before it, as its source context (its own message
    // is its text)
    assertThat(contextOf("s1:6")).isEqualTo("guess which instrument she started learning");
    assertThat(sources(SearchRequest.builder(CHAT, QUESTION).topK(3).ranking(Ranking.NONE)))
        .doesNotContain("s1:6");
    Ranking context = Ranking.NONE.withContext(true);
    assertThat(sources(SearchRequest.builder(CHAT, QUESTION).topK(3).ranking(context)))
        .contains("s1:6");
    assertThat(fusedScore(context, "s1:6")).isGreaterThan(fusedScore(Ranking.NONE, "s1:6"));
  }

  @Test
  void withoutSourceContextsTheContextStepChangesNothing() throws Exception {
    memory.close();
    memory =
        storage(Engram.builder(), "main")
            .fusion(dev.engram.Fusion.RRF)
            .embedder(new HashEmbedder())
            .clock(CLOCK)
            .sourceContext(false)
            .build();
    conversation();
    assertThat(contextOf("s1:6")).isEmpty();
    assertThat(
            sources(
                SearchRequest.builder(CHAT, QUESTION)
                    .topK(5)
                    .ranking(Ranking.NONE.withContext(true))))
        .isEqualTo(sources(SearchRequest.builder(CHAT, QUESTION).topK(5).ranking(Ranking.NONE)));
  }

  /**
   * The source context of the memory drawn from message {@code sourceId}, as an export carries it.
   */
  private String contextOf(String sourceId) {
    return memory
        .exportRecords(dev.engram.ExportRequest.of(CHAT))
        .filter(r -> r.memory().isPresent() && r.memory().get().sourceIds().contains(sourceId))
        .findFirst()
        .orElseThrow()
        .context();
  }

  @Test
  void aNeighbourEntersWithinATokenBudget() {
    conversation();
    // s1:5 and s2:1 take 12 cl100k tokens, the answer turn 8: room for one more turn
    List<String> kept =
        sources(
            SearchRequest.builder(CHAT, QUESTION)
                .maxTokens(20)
                .ranking(Ranking.NONE.withNeighbours(true)));
    assertThat(kept).contains("s1:5", "s2:1");
    assertThat(kept).containsAnyOf("s1:4", "s1:6");
  }

  @Test
  void neighboursStayInsideTheScope() {
    conversation();
    memory.add(
        AddRequest.builder(Scope.user("other"))
            .message(
                new Message(Role.USER, "the cello is mine", "speaker", CLOCK.instant(), "s1:4"))
            .infer(false)
            .build());
    List<SearchHit> hits =
        memory
            .search(
                SearchRequest.builder(CHAT, QUESTION)
                    .topK(20)
                    .ranking(Ranking.NONE.withNeighbours(true))
                    .build())
            .hits();
    assertThat(hits).hasSize(11).allMatch(h -> h.memory().userId().equals("chat"));
  }

  /** Three memories from message m:1 about tennis and a weaker one from m:2 about chess. */
  private void tennisAndChess() {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    say("m:1", "alice plays tennis", t);
    say("m:1", "alice plays tennis on sundays", t);
    say("m:1", "alice plays tennis with her younger brother", t);
    say("m:2", "alice watched a long chess game on television last night", t);
  }

  /**
   * Three memories from message m:1 and a weaker one from m:2: diversity keeps m:2 before a second
   * of m:1.
   */
  @Test
  void diversityPrefersAMemoryFromANewSourceMessage() {
    tennisAndChess();
    SearchRequest.Builder q = SearchRequest.builder(CHAT, "alice plays").topK(2);
    assertThat(sources(q.ranking(Ranking.NONE))).containsExactly("m:1", "m:1");
    assertThat(sources(q.ranking(Ranking.NONE.withDiversity(true))))
        .containsExactlyInAnyOrder("m:1", "m:2");
    // with room for all, the deferred ones still come
    assertThat(sources(q.topK(4).ranking(Ranking.NONE.withDiversity(true)))).hasSize(4);
  }

  /**
   * Without any step, a message brings two hits before its third memory waits behind another
   * message's (the choice of hits, {@link HybridSearch#HITS_PER_MESSAGE}).
   */
  @Test
  void aMessagesThirdMemoryWaitsBehindAnotherMessage() {
    tennisAndChess();
    SearchRequest.Builder q = SearchRequest.builder(CHAT, "alice plays").ranking(Ranking.NONE);
    assertThat(sources(q.topK(2))).containsExactly("m:1", "m:1");
    assertThat(sources(q.topK(3))).containsExactlyInAnyOrder("m:1", "m:1", "m:2");
    // with room for all, the third one still comes
    assertThat(sources(q.topK(4))).containsExactlyInAnyOrder("m:1", "m:1", "m:1", "m:2");
  }

  /** The same fact told in two months: the month the query names decides which ranks first. */
  @Test
  void aQueryNamingAMonthPrefersTheMemoryOfThatMonth() {
    say("a:1", "Alice went hiking in the hills", Instant.parse("2023-05-20T09:00:00Z"));
    say("b:1", "Alice went hiking in the hills with Bob", Instant.parse("2023-08-12T09:00:00Z"));
    Ranking dates = Ranking.NONE.withEventDates(true);
    assertThat(
            sources(
                SearchRequest.builder(CHAT, "Where did Alice go hiking in May 2023?")
                    .topK(1)
                    .ranking(dates)))
        .containsExactly("a:1");
    assertThat(
            sources(
                SearchRequest.builder(CHAT, "Where did Alice go hiking in August 2023?")
                    .topK(1)
                    .ranking(dates)))
        .containsExactly("b:1");
    assertThat(
            sources(
                SearchRequest.builder(CHAT, "Where did Alice go hiking in June?")
                    .topK(2)
                    .ranking(dates)))
        .hasSize(2); // no memory in the period: the ranking is the fusion's
  }

  @Test
  void relativeDatesAreResolvedWithTheEnginesClock() {
    say("a:1", "we adopted a dog named Rex", Instant.parse("2023-07-01T09:00:00Z"));
    say("b:1", "we adopted a dog named Rex and a cat", Instant.parse("2024-02-01T09:00:00Z"));
    Ranking dates = Ranking.NONE.withEventDates(true);
    assertThat(
            sources(
                SearchRequest.builder(CHAT, "which dog did we adopt last year")
                    .topK(1)
                    .ranking(dates)))
        .containsExactly("a:1");
    assertThat(
            sources(
                SearchRequest.builder(CHAT, "which dog did we adopt this year")
                    .topK(1)
                    .ranking(dates)))
        .containsExactly("b:1");
  }

  /**
   * f:2 shares no word with the question, only with its three best hits: the feedback search (the
   * query moved towards them) ranks it among its first five, which adds at least that rank's share
   * to its fused score (a memory in none of the lists gets nothing); without feedback it ranks
   * behind ten memories that share a word with the question, outside the first ten, which feedback
   * leaves in place.
   */
  @Test
  void feedbackFindsWhatTheBestHitsAreAbout() {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    say("a:1", "alice hobby watercolor painting", t);
    say("a:2", "alice hobby watercolor painting landscapes", t);
    say("a:3", "alice hobby watercolor painting classes", t);
    say("f:2", "watercolor painting landscapes exhibition", t);
    String[] filler = {
      "the trains were late again for everyone going home now",
      "dinner was pasta with tomatoes and basil from the market",
      "new shoes hurt my feet after the long walk home",
      "coffee tastes better with oat milk than with cream honestly",
      "the garden needs water soon because it is dry",
      "my cousin bought a red bicycle for the summer trip",
      "we painted the kitchen yellow over the long weekend",
      "the cat sleeps on the sofa all day and night",
      "there is a concert in the park on friday evening",
      "grandma baked bread and cookies for the whole family again"
    };
    for (int i = 0; i < filler.length; i++) {
      say("x:" + i, "tonight " + filler[i], t);
    }
    SearchRequest.Builder q =
        SearchRequest.builder(CHAT, "alice hobby tonight").topK(20).explain(true);
    double without = fused(q.ranking(Ranking.NONE), "f:2");
    double fifth =
        FeedbackStep.FEEDBACK_WEIGHT / (RankFusion.RRF_K + 5) / (2.0 / (RankFusion.RRF_K + 1));
    assertThat(fused(q.ranking(Ranking.NONE.withFeedback(true)), "f:2") - without)
        .isGreaterThanOrEqualTo(fifth - 1e-9);
    // the first ten keep their places: a top-10 search returns the same memories with and without
    // feedback
    SearchRequest.Builder ten =
        SearchRequest.builder(CHAT, "alice hobby tonight").topK(FeedbackStep.FEEDBACK_KEEPS);
    List<String> before =
        memory.search(ten.ranking(Ranking.NONE).build()).hits().stream()
            .map(h -> h.memory().id())
            .toList();
    List<String> after =
        memory.search(ten.ranking(Ranking.NONE.withFeedback(true)).build()).hits().stream()
            .map(h -> h.memory().id())
            .toList();
    assertThat(after).containsExactlyInAnyOrderElementsOf(before).doesNotContain(idOf("f:2"));
  }

  @Test
  void theDefaultRunsDatesContextHubsNamesPassagesFactsAndInstructions() {
    assertThat(SearchRequest.builder(CHAT, "q").build().ranking())
        .isEqualTo(Ranking.DEFAULT)
        .isEqualTo(
            Ranking.of("dates", "context", "hubs", "names", "passages", "facts", "instructions"));
    assertThat(Ranking.parse("default,diversity,neighbours,feedback", "ranking"))
        .isEqualTo(Ranking.ALL);
    assertThat(Ranking.parse("none", "ranking")).isEqualTo(Ranking.NONE);
    assertThat(Ranking.parse("hubs", "ranking")).isEqualTo(Ranking.NONE.withHubs(true));
    assertThat(Ranking.NONE.spec()).isEqualTo("none");
    assertThat(Ranking.parse("names", "ranking")).isEqualTo(Ranking.NONE.withNames(true));
    assertThat(Ranking.DEFAULT.spec())
        .isEqualTo("dates,context,hubs,names,passages,facts,instructions");
    assertThat(Ranking.parse("passages", "ranking")).isEqualTo(Ranking.NONE.withPassages(true));
    for (int bits = 0; bits < 1 << Ranking.STEPS.size(); bits++) {
      List<String> on = new ArrayList<>();
      for (int i = 0; i < Ranking.STEPS.size(); i++) {
        if ((bits & (1 << i)) != 0) {
          on.add(Ranking.STEPS.get(i));
        }
      }
      Ranking r = Ranking.of(on);
      assertThat(Ranking.parse(r.spec(), "ranking")).as(r.spec()).isEqualTo(r);
    }
    assertThatThrownBy(() -> Ranking.parse("dates,magic", "ranking"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ranking")
        .hasMessageContaining("magic");
  }

  /** Three memories of two named speakers, none sharing a word with the questions about jazz. */
  private void namedSpeakers(Memory into, Scope scope, boolean named) {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    String[][] said = {
      {"Caroline", "Caroline adopted a puppy named Max"},
      {"Melanie", "Melanie painted a lake"},
      {"Caroline", "running every morning keeps Caroline calm"}
    };
    for (int i = 0; i < said.length; i++) {
      into.add(
          AddRequest.builder(scope)
              .message(new Message(Role.USER, said[i][1], named ? said[i][0] : null, t, "n:" + i))
              .infer(false)
              .timestamp(t)
              .build());
    }
  }

  /**
   * A memory (with the offline graph if {@code graph}) whose hashing embedder has room enough
   * (4,096 dimensions) that texts sharing no word have a cosine of 0.
   */
  private Memory sparseMemory(boolean graph) throws Exception {
    memory.close();
    Engram.Builder builder =
        storage(Engram.builder(), graph ? "names-graph" : "names")
            .embedder(new HashEmbedder(4096, "test-hash-4096"))
            .clock(CLOCK);
    memory = (graph ? builder.graph(OfflineGraphExtractor.create()) : builder).build();
    return memory;
  }

  private static SearchRequest.Builder jazz(Scope scope, String who) {
    return SearchRequest.builder(scope, "What did " + who + " think of jazz?");
  }

  @Test
  void theNamesStepReturnsNothingForAQueryAboutSomeoneNoMemoryMentions() throws Exception {
    namedSpeakers(sparseMemory(false), CHAT, true);
    assertThat(memory.search(jazz(CHAT, "Bob").build()).hits()).isEmpty();
    assertThat(
            memory
                .search(
                    jazz(CHAT, "Bob")
                        .threshold(0)
                        .ranking(Ranking.DEFAULT.withNames(false))
                        .build())
                .hits())
        .hasSize(3);
    // a name the memories mention, a query without one, and a memory close to the query are
    // answered as before
    assertThat(memory.search(jazz(CHAT, "Melanie").build()).hits()).hasSize(3);
    assertThat(
            memory.search(SearchRequest.builder(CHAT, "what did bob think of jazz").build()).hits())
        .hasSize(3);
    assertThat(
            memory
                .search(SearchRequest.builder(CHAT, "Did Bob adopt a puppy named Max?").build())
                .hits())
        .extracting(h -> h.memory().text())
        .startsWith("Caroline adopted a puppy named Max");
    // the scope's own user is known, whether or not a memory names them
    Scope bob = Scope.user("bob");
    namedSpeakers(memory, bob, true);
    assertThat(memory.search(jazz(bob, "Bob").build()).hits()).hasSize(3);
  }

  /**
   * The query's language comes from the builder's {@link QueryAnalyzer}: one that finds no names in
   * a query leaves the names step nothing to cut, where the English default returns nothing.
   */
  @Test
  void theQueryAnalyzerGivenToTheBuilderDecidesWhichNamesAQueryGives() throws Exception {
    QueryAnalyzer english = QueryAnalyzer.english();
    QueryAnalyzer nameless =
        new QueryAnalyzer() {
          @Override
          public String keywords(String query) {
            return english.keywords(query);
          }

          @Override
          public List<String> names(String query) {
            return List.of();
          }

          @Override
          public boolean mentions(String text, String name) {
            return english.mentions(text, name);
          }

          @Override
          public List<Period> periods(String query, Clock clock) {
            return english.periods(query, clock);
          }
        };
    memory.close();
    memory =
        storage(Engram.builder(), "analyzer")
            .embedder(new HashEmbedder(4096, "test-hash-4096"))
            .clock(CLOCK)
            .queryAnalyzer(nameless)
            .build();
    namedSpeakers(memory, CHAT, true);
    assertThat(memory.search(jazz(CHAT, "Bob").build()).hits()).hasSize(3);
    // the English default, on the same memories, finds the unknown name and cuts
    namedSpeakers(sparseMemory(false), CHAT, true);
    assertThat(memory.search(jazz(CHAT, "Bob").build()).hits()).isEmpty();
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(InMemoryStorage.create())
                    .embedder(new HashEmbedder())
                    .queryAnalyzer(null)
                    .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("queryAnalyzer");
  }

  @Test
  void theNamesStepCutsNothingWhereMemoriesDoNotNameTheirSpeaker() throws Exception {
    Scope anonymous = Scope.user("u-17");
    namedSpeakers(sparseMemory(false), anonymous, false);
    // "Bob" may be the unnamed speaker of these memories
    assertThat(memory.search(jazz(anonymous, "Bob").build()).hits()).hasSize(3);
  }

  @Test
  void theNamesStepReturnsNoRelationsEither() throws Exception {
    if (!hasGraph()) {
      assertGraphRefused(() -> sparseMemory(true));
      return;
    }
    namedSpeakers(sparseMemory(true), CHAT, true);
    var open = memory.search(jazz(CHAT, "Bob").ranking(Ranking.DEFAULT.withNames(false)).build());
    assertThat(open.hits()).isNotEmpty();
    assertThat(open.relations()).isNotEmpty();
    var cut = memory.search(jazz(CHAT, "Bob").build());
    assertThat(cut.hits()).isEmpty();
    assertThat(cut.relations()).isEmpty();
  }

  /**
   * A hub and a specific memory (a fake embedder that places texts on topic axes): "music music
   * cello" is nearer the question "cello music" than "she takes cello lessons" is (0.95 against
   * 0.71), but 45 memories about music, each on an axis of its own besides, lie near the hub (0.63)
   * and far from the specific memory (0). Their own density is about 0.50; the hub's 0.63; the
   * specific memory's 0.015. (47 memories: a scope large enough for the step, {@link
   * HubDensities#SMALLEST_SCOPE}.) Fused by RRF, under which the step reorders the memories' own
   * dense list; under the cosine fusion it leaves that list as it is ({@link
   * #underTheCosineFusionTheHubsStepLeavesTheMemoriesDenseListAsItIs}).
   */
  private Memory hubAndSpecific() throws Exception {
    return hubAndSpecific(false, dev.engram.Fusion.RRF);
  }

  private Memory hubAndSpecific(boolean graph) throws Exception {
    return hubAndSpecific(graph, dev.engram.Fusion.RRF);
  }

  /**
   * {@link #hubAndSpecific()}, with the offline graph if {@code graph}: a relation per memory, its
   * text its fact.
   */
  private Memory hubAndSpecific(boolean graph, dev.engram.Fusion fusion) throws Exception {
    memory.close();
    Map<String, Integer> topics = new HashMap<>(Map.of("music", 0, "cello", 1));
    for (int i = 0; i < 75; i++) {
      topics.put("theme" + i, 2 + i);
    }
    for (int i = 0;
        i < 77;
        i++) { // the graph's speakers, on axes of their own: entities the graph keeps apart
      topics.put(speaker(true, i), 77 + i);
    }
    Engram.Builder builder =
        storage(Engram.builder(), "topics")
            .embedder(new TopicEmbedder(topics, 155))
            .clock(CLOCK)
            .fusion(fusion);
    memory = (graph ? builder.graph(OfflineGraphExtractor.create()) : builder).build();
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    say(speaker(graph, 0), "hub", "music music cello", t);
    say(speaker(graph, 1), "specific", "she takes cello lessons", t);
    for (int i = 0; i < 45; i++) {
      say(speaker(graph, 2 + i), "crowd:" + i, "music theme" + i, t);
    }
    assertThat(HubDensities.SMALLEST_SCOPE).isLessThanOrEqualTo(47);
    return memory;
  }

  /**
   * The memories' sources in the order of the dense list (the semantic rank of the explain
   * details).
   */
  private List<String> denseOrder(Ranking ranking) {
    return memory
        .search(
            SearchRequest.builder(CHAT, "cello music")
                .topK(100)
                .explain(true)
                .ranking(ranking)
                .build())
        .hits()
        .stream()
        .filter(h -> h.details().semanticRank() > 0)
        .sorted(java.util.Comparator.comparingInt(h -> h.details().semanticRank()))
        .map(h -> h.memory().sourceIds().get(0))
        .toList();
  }

  @Test
  void theHubsStepPutsTheMemoryAboutTheQueryBeforeAMemoryNearEverything() throws Exception {
    hubAndSpecific();
    assertThat(denseOrder(Ranking.NONE)).startsWith("hub", "specific");
    // 0.95 - 0.5 * 0.63 = 0.63 for the hub, 0.71 - 0.5 * 0.015 = 0.70 for the specific memory
    assertThat(denseOrder(Ranking.NONE.withHubs(true))).startsWith("specific", "hub");
    // the scores stay the similarities; only the order changes
    SearchHit specific =
        memory
            .search(
                SearchRequest.builder(CHAT, "cello music")
                    .topK(100)
                    .explain(true)
                    .ranking(Ranking.NONE.withHubs(true))
                    .build())
            .hits()
            .stream()
            .filter(h -> h.memory().sourceIds().contains("specific"))
            .findFirst()
            .orElseThrow();
    assertThat(specific.details().semantic())
        .isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-3));
  }

  /**
   * The speaker of the {@code i}-th message of {@link #hubAndSpecific(boolean)}: with the graph, a
   * name of its own, so that the offline graph gives each memory a relation of its own (a speaker
   * is an entity, and one entity's self-relations would merge); a relation's fact is the memory
   * text alone, so the names do not move the facts.
   */
  private static String speaker(boolean graph, int i) {
    return graph ? "speaker" + i : "speaker";
  }

  /** The facts of the relations a search for "cello music" returns, in order. */
  private List<String> relationOrder(Ranking ranking) {
    return memory
        .search(SearchRequest.builder(CHAT, "cello music").topK(100).ranking(ranking).build())
        .relations()
        .stream()
        .map(GraphRelation::fact)
        .toList();
  }

  @Test
  void theHubsStepOrdersTheGraphsRelationsAsItOrdersMemories() throws Exception {
    if (!hasGraph()) {
      assertGraphRefused(() -> hubAndSpecific(true));
      return;
    }
    hubAndSpecific(true);
    // no entity is named: the facts' similarity alone ranks the relations
    assertThat(relationOrder(Ranking.NONE))
        .startsWith("music music cello", "she takes cello lessons");
    assertThat(relationOrder(Ranking.NONE.withHubs(true)))
        .startsWith("she takes cello lessons", "music music cello");
    // 30 relations about the cello move in next to the specific one: it is a hub of its own now
    Instant t = Instant.parse("2024-03-02T10:00:00Z");
    for (int i = 0; i < 30; i++) {
      say(speaker(true, 47 + i), "cello:" + i, "cello theme" + (45 + i), t);
    }
    assertThat(relationOrder(Ranking.NONE.withHubs(true)))
        .startsWith("music music cello", "she takes cello lessons");
  }

  @Test
  void underTheCosineFusionTheHubsStepLeavesTheMemoriesDenseListAsItIs() throws Exception {
    hubAndSpecific(false, dev.engram.Fusion.COSINE);
    // that fusion scores each candidate by its cosine, not by its place in the list: the hub stays
    // first, as without the step, and no density is computed
    assertThat(denseOrder(Ranking.NONE.withHubs(true))).startsWith("hub", "specific");
    assertThat(denseOrder(Ranking.NONE.withHubs(true))).isEqualTo(denseOrder(Ranking.NONE));
  }

  @Test
  void aMemoryWhoseNeighbourhoodFillsUpLosesItsPlace() throws Exception {
    hubAndSpecific();
    Ranking hubs = Ranking.NONE.withHubs(true);
    assertThat(denseOrder(hubs))
        .startsWith("specific", "hub"); // the densities are computed and held
    // 30 memories about the cello, each on an axis of its own besides, move in next to the specific
    // memory (0.71):
    // the scope's densities are computed again, and the specific memory is now a hub of its own
    Instant t = Instant.parse("2024-03-02T10:00:00Z");
    for (int i = 0; i < 30; i++) {
      say("cello:" + i, "cello theme" + (45 + i), t);
    }
    assertThat(denseOrder(hubs)).startsWith("hub", "specific");
  }

  @Test
  void whenTheHubsNeighboursAreDeletedItIsNoHubAnyMore() throws Exception {
    hubAndSpecific();
    Ranking hubs = Ranking.NONE.withHubs(true);
    assertThat(denseOrder(hubs)).startsWith("specific", "hub");
    for (SearchHit h :
        memory
            .search(SearchRequest.builder(CHAT, "music").topK(100).ranking(Ranking.NONE).build())
            .hits()) {
      if (h.memory().sourceIds().get(0).startsWith("crowd:")) {
        memory.delete(h.memory().id());
      }
    }
    // two memories are left: too few for the step, which keeps the order of similarity
    assertThat(denseOrder(hubs)).containsExactly("hub", "specific");
  }

  @Test
  void aSmallScopeKeepsTheOrderOfSimilarity() throws Exception {
    hubAndSpecific();
    List<SearchHit> crowd =
        memory
            .search(SearchRequest.builder(CHAT, "music").topK(100).ranking(Ranking.NONE).build())
            .hits()
            .stream()
            .filter(h -> h.memory().sourceIds().get(0).startsWith("crowd:"))
            .toList();
    for (SearchHit h : crowd.subList(0, 2)) {
      memory.delete(h.memory().id()); // 45 memories: one too few
    }
    assertThat(denseOrder(Ranking.NONE.withHubs(true))).startsWith("hub", "specific");
  }

  @Test
  void aMemoryLiesInEveryScopeThatSetsSomeOfItsIds() {
    assertThat(HubDensities.covering(Scope.of("u", "a", "r")))
        .containsExactlyInAnyOrder(
            Scope.user("u"),
            Scope.agent("a"),
            Scope.run("r"),
            Scope.of("u", "a", null),
            Scope.of("u", null, "r"),
            Scope.of(null, "a", "r"),
            Scope.of("u", "a", "r"));
    assertThat(HubDensities.covering(Scope.user("u"))).containsExactly(Scope.user("u"));
    assertThat(HubDensities.covering(Scope.of("u", null, "r")))
        .containsExactlyInAnyOrder(Scope.user("u"), Scope.run("r"), Scope.of("u", null, "r"));
  }

  /**
   * A source whose message ids say nothing of their order (random UUIDs) and whose messages carry
   * no timestamp: the order the adds were stored in (a ticking clock) tells the turns beside the
   * best hit.
   */
  @Test
  void neighboursComeFromTheOrderOfTheAddsNotFromTheFormOfTheIds() throws Exception {
    try (Memory ticking =
        storage(Engram.builder(), "ticking")
            .embedder(new HashEmbedder())
            .clock(new dev.engram.testing.TickingClock())
            .build()) {
      String[] turns = {
        "the weather was grey and wet",
        "coffee tastes better with oat milk",
        "my cousin bought a red bicycle",
        "guess which instrument she started learning",
        "the cello, lessons every tuesday",
        "trains were late again this morning",
        "we painted the kitchen yellow",
        "the cat sleeps on the sofa all day"
      };
      Map<String, String> idOf = new HashMap<>();
      for (String text : turns) {
        String id = java.util.UUID.randomUUID().toString();
        idOf.put(text, id);
        ticking.add(
            AddRequest.builder(CHAT)
                .message(new Message(Role.USER, text, "speaker", null, id))
                .infer(false)
                .build());
      }
      Ranking neighbours = Ranking.NONE.withNeighbours(true);
      List<String> with = new ArrayList<>();
      ticking
          .search(SearchRequest.builder(CHAT, QUESTION).topK(3).ranking(neighbours).build())
          .hits()
          .forEach(h -> with.addAll(h.memory().sourceIds()));
      assertThat(with.get(0)).isEqualTo(idOf.get(turns[3]));
      // the answer, said right after the best hit, and the turn said right before it
      assertThat(with)
          .containsExactlyInAnyOrder(idOf.get(turns[3]), idOf.get(turns[4]), idOf.get(turns[2]));
    }
  }

  @Test
  void aMemoryIsBesideTheNearestOnEachSideInItsConversationsOrder() {
    Instant day = Instant.parse("2024-03-01T10:00:00Z");
    StoredMemory anchor = stored("a", day.plusSeconds(300), day, "m5");
    StoredMemory sameMessage = stored("b", day.plusSeconds(900), day, "m5");
    StoredMemory before = stored("c", day.plusSeconds(240), day, "m4");
    StoredMemory earlier = stored("d", day.plusSeconds(60), day, "m1");
    StoredMemory after = stored("e", day.plusSeconds(360), day, "m6");
    StoredMemory nextDay = stored("f", day.plusSeconds(86_400), day, "m9");
    assertThat(
            NeighboursStep.beside(
                anchor, List.of(nextDay, earlier, sameMessage, after, before, anchor)))
        .containsExactlyInAnyOrder("b", "c", "e");
  }

  private static StoredMemory stored(String id, Instant eventTime, Instant created, String source) {
    dev.engram.MemoryItem item =
        new dev.engram.MemoryItem(
            id,
            "text " + id,
            "0".repeat(32),
            Map.of(),
            "chat",
            null,
            null,
            null,
            Role.USER,
            created,
            created,
            eventTime,
            List.of(source),
            null);
    return new StoredMemory("t", item, new float[0], "", new float[0]);
  }

  private String idOf(String sourceId) {
    return memory
        .search(
            SearchRequest.builder(CHAT, "alice hobby tonight")
                .topK(100)
                .ranking(Ranking.NONE)
                .build())
        .hits()
        .stream()
        .filter(h -> h.memory().sourceIds().contains(sourceId))
        .findFirst()
        .orElseThrow()
        .memory()
        .id();
  }

  private double fused(SearchRequest.Builder request, String sourceId) {
    return memory.search(request.build()).hits().stream()
        .filter(h -> h.memory().sourceIds().contains(sourceId))
        .findFirst()
        .orElseThrow()
        .details()
        .fused();
  }
}
