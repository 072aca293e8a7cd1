package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.RelevanceCalibration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Contract: hybrid search inside scope and tenant, filters (in search and list), threshold, top-k,
 * explain.
 */
public abstract class SearchContract extends AddContract {

  @Test
  void searchSeesOnlyItsOwnScope() {
    String alice = addVerbatim(ALICE, "I love hiking in the mountains");
    String bob = addVerbatim(BOB, "I love hiking in the mountains too");
    String alicePlanner = addVerbatim(ALICE.withAgent("planner"), "hiking plan for the weekend");

    assertThat(search(ALICE, "hiking mountains")).containsExactlyInAnyOrder(alice, alicePlanner);
    assertThat(search(BOB, "hiking mountains")).containsExactly(bob);
    assertThat(search(ALICE.withAgent("planner"), "hiking")).containsExactly(alicePlanner);
    assertThat(search(Scope.user("carol"), "hiking")).isEmpty();
  }

  @Test
  void tenantsAreIsolated() {
    Memory acme = memory.forTenant("acme");
    assertThat(acme.tenant()).isEqualTo("acme");
    String ours = addVerbatim(ALICE, "the launch is on Friday");
    String theirs =
        acme.add(AddRequest.builder(ALICE).user("the launch is on Monday").infer(false).build())
            .events()
            .get(0)
            .id();

    assertThat(search(ALICE, "launch")).containsExactly(ours);
    assertThat(ids(acme.search(SearchRequest.builder(ALICE, "launch").build()).hits()))
        .containsExactly(theirs);
    assertThat(memory.get(theirs)).isEmpty();
    assertThat(acme.get(ours)).isEmpty();
    assertThat(acme.list(ListRequest.of(ALICE)).total()).isEqualTo(1);
    assertThat(total(ALICE)).isEqualTo(1);
  }

  @Test
  protected void filtersApplyToSearchAndListAlike() {
    String m1 =
        add(
            Message.user("I cook pasta on Sundays")
                .withName("Caroline")
                .withTimestamp(Instant.parse("2023-01-10T09:00:00Z")),
            Map.of("topic", "food", "stars", 1, "tags", List.of("italian", "home")));
    String m2 =
        add(
            Message.user("We flew to Tokyo")
                .withName("Melanie")
                .withTimestamp(Instant.parse("2023-06-01T00:00:00Z")),
            Map.of("topic", "travel", "stars", 3));
    String m3 =
        add(
            Message.assistant("Try the ramen place near the station").withName("Bot"),
            Map.of("topic", "food", "stars", 5, "tags", List.of("japanese")));
    String m4 =
        add(
            Message.user("Nothing special happened")
                .withTimestamp(Instant.parse("2023-09-09T12:00:00Z")),
            Map.of());
    Instant created2 = memory.get(m2).orElseThrow().createdAt();
    Instant created1 = memory.get(m1).orElseThrow().createdAt();

    assertFilter("{\"topic\": \"food\"}", m1, m3);
    assertFilter("{\"stars\": {\"gte\": 3}}", m2, m3);
    assertFilter("{\"stars\": {\"gt\": 1, \"lt\": 5}}", m2);
    assertFilter("{\"topic\": {\"in\": [\"travel\", \"music\"]}}", m2);
    assertFilter("{\"topic\": {\"ne\": \"food\"}}", m2, m4);
    assertFilter("{\"topic\": {\"nin\": [\"food\"]}}", m2, m4);
    assertFilter("{\"tags\": \"japanese\"}", m3);
    assertFilter("{\"topic\": \"*\"}", m1, m2, m3);
    assertFilter("{\"NOT\": [{\"topic\": \"food\"}]}", m2, m4);
    assertFilter("{\"OR\": [{\"stars\": 1}, {\"topic\": \"travel\"}]}", m1, m2);
    assertFilter("{\"AND\": [{\"topic\": \"food\"}, {\"stars\": {\"lte\": 1}}]}", m1);
    assertFilter("{\"memory\": {\"icontains\": \"TOKYO\"}}", m2);
    assertFilter("{\"memory\": {\"contains\": \"ramen\"}}", m3);
    assertFilter("{\"role\": \"assistant\"}", m3);
    assertFilter("{\"actor_id\": \"Caroline\"}", m1);
    assertFilter("{\"user_id\": \"alice\", \"topic\": \"travel\"}", m2);
    // m3 was given no time: it was said when the add was received, on TODAY by the test clock
    // (2024-05-01)
    assertFilter("{\"event_time\": {\"gte\": \"2023-06-01\"}}", m2, m3, m4);
    assertFilter("{\"event_time\": {\"gte\": \"" + TODAY + "\"}}", m3);
    assertFilter("{\"event_time\": {\"lt\": \"2023-06-01T00:00:00Z\"}}", m1);
    assertFilter("{\"created_at\": {\"gt\": \"" + created2 + "\"}}", m3, m4);
    assertFilter("{\"created_at\": {\"lte\": \"" + created1 + "\"}}", m1);
    assertFilter("{\"topic\": \"sports\"}");
  }

  private String add(Message m, Map<String, Object> metadata) {
    return memory
        .add(AddRequest.builder(ALICE).message(m).metadata(metadata).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  private void assertFilter(String json, String... expected) {
    Filter f = Mem0Filters.parse(json);
    List<String> searched =
        ids(
            memory
                .search(
                    SearchRequest.builder(ALICE, "what happened with food and travel")
                        .filter(f)
                        .topK(100)
                        .build())
                .hits());
    List<String> listed =
        memory.list(ListRequest.of(ALICE).withFilter(f)).items().stream()
            .map(MemoryItem::id)
            .toList();
    assertThat(searched).as("search with %s", json).containsExactlyInAnyOrder(expected);
    assertThat(listed).as("list with %s", json).containsExactlyInAnyOrder(expected);
    assertThat(memory.list(ListRequest.of(ALICE).withFilter(f)).total())
        .as("total with %s", json)
        .isEqualTo(expected.length);
  }

  @Test
  void thresholdTopKAndExplain() {
    // "zebra" alone has cosine 1 with the query "zebra" and the best BM25 score: rank 1 in both
    // lists, so its
    // RRF score is (1/61 + 1/61) / (2/61) = 1 with the fusion alone (the ranking steps would change
    // the lists: the
    // source context adds to the keyword scores). Every other memory misses rank 1 in at least one
    // list.
    String zebra = addVerbatim(ALICE, "zebra");
    String crossing = addVerbatim(ALICE, "a zebra crossing near the old school at night");
    addVerbatim(ALICE, "a quiet evening with a book");
    addVerbatim(ALICE, "pancakes for breakfast");
    addVerbatim(ALICE, "the train was late again");

    List<SearchHit> all =
        memory
            .search(
                SearchRequest.builder(ALICE, "zebra")
                    .explain(true)
                    .ranking(dev.engram.Ranking.NONE)
                    .build())
            .hits();
    assertThat(all).hasSize(5);
    assertThat(all.get(0).memory().id()).isEqualTo(zebra);
    // an identical embedding is all but certainly relevant (the calibration's logistic nears 1)
    assertThat(all.get(0).score()).isCloseTo(1.0, Offset.offset(1e-5));
    // each score is the hit's relevance, its calibrated cosine, raised by the fusion's support
    // by at most MAX_SUPPORT and never past the best hit's relevance; best first
    assertThat(all)
        .extracting(SearchHit::score)
        .isSortedAccordingTo((a, b) -> Double.compare(b, a));
    assertThat(all).allSatisfy(h -> assertThat(h.score()).isBetween(0.0, 1.0));
    assertThat(all)
        .filteredOn(h -> h.details().semanticRank() > 0)
        .allSatisfy(
            h ->
                assertThat(h.score())
                    .isBetween(
                        own(h) - 1e-5,
                        Math.max(own(h), Math.min(1.0, own(h) + SearchHit.MAX_SUPPORT)) + 1e-5));
    ScoreDetails d = all.get(0).details();
    assertThat(d.semantic()).isCloseTo(1.0, Offset.offset(1e-5));
    assertThat(d.semanticRank()).isEqualTo(1);
    assertThat(d.keyword()).isPositive();
    assertThat(d.keywordRank()).isEqualTo(1);
    assertThat(d.fused()).isEqualTo(1.0);
    assertThat(d.rerank()).isNaN();
    assertThat(d.fusion()).isEqualTo(dev.engram.Fusion.defaultFor(false).name());
    ScoreDetails c =
        all.stream()
            .filter(h -> h.memory().id().equals(crossing))
            .findFirst()
            .orElseThrow()
            .details();
    assertThat(c.keywordRank()).isEqualTo(2);
    assertThat(all)
        .filteredOn(h -> !h.memory().id().equals(zebra) && !h.memory().id().equals(crossing))
        .allSatisfy(h -> assertThat(h.details().keywordRank()).isZero());

    assertThat(memory.search(SearchRequest.builder(ALICE, "zebra").build()).hits())
        .allSatisfy(h -> assertThat(h.details()).isNull());
    // a threshold keeps exactly the hits of the same search (default ranking) that score at least
    // it
    List<SearchHit> ranked = memory.search(SearchRequest.builder(ALICE, "zebra").build()).hits();
    assertThat(ranked.get(0).memory().id()).isEqualTo(zebra);
    for (int i : new int[] {0, 1}) {
      double at = ranked.get(i).score();
      assertThat(
              ids(
                  memory
                      .search(SearchRequest.builder(ALICE, "zebra").threshold(at).build())
                      .hits()))
          .containsExactlyElementsOf(ids(ranked.stream().filter(h -> h.score() >= at).toList()))
          .startsWith(zebra)
          .hasSizeLessThan(ranked.size());
    }
    // top-k takes the fusion's best: zebra and crossing lead both lists (without the ranking steps,
    // which would let
    // the memory after crossing in, whose source context says zebra)
    assertThat(
            ids(
                memory
                    .search(
                        SearchRequest.builder(ALICE, "zebra")
                            .topK(2)
                            .ranking(dev.engram.Ranking.NONE)
                            .build())
                    .hits()))
        .containsExactlyInAnyOrder(zebra, crossing);
    assertThat(memory.search(SearchRequest.builder(ALICE, "zebra").topK(1).build()).hits())
        .hasSize(1);
  }

  @Test
  void
      theFusionsSupportRaisesAHitByAtMostMaxSupportAndNoHitOfAQueryPassesAThresholdOverItsBestRelevance() {
    addVerbatim(ALICE, "zebra");
    addVerbatim(
        ALICE, "pancakes for breakfast"); // its source context is the message before it: "zebra"
    addVerbatim(ALICE, "a quiet evening with a book");
    for (String query : List.of("zebra", "volcanic eruption")) {
      // without the ranking steps, so that the scores are the fusion's alone
      List<SearchHit> hits =
          memory
              .search(
                  SearchRequest.builder(ALICE, query)
                      .explain(true)
                      .topK(100)
                      .ranking(dev.engram.Ranking.NONE)
                      .build())
              .hits();
      assertThat(hits).hasSize(3);
      double best = hits.stream().mapToDouble(SearchContract::own).max().orElseThrow();
      assertThat(hits)
          .as(query)
          .allSatisfy(
              h ->
                  assertThat(h.score())
                      .isBetween(own(h) - 1e-5, own(h) + SearchHit.MAX_SUPPORT + 1e-5)
                      .isLessThanOrEqualTo(Math.max(own(h), best) + 1e-5));
      if (query.startsWith("volcanic")) {
        // no memory shares a word with it: each scores near 0 under any embedder's calibration,
        // and the fusion's support keeps them under the suggested threshold
        assertThat(best).as("no memory is about volcanoes").isLessThan(0.05);
        assertThat(hits)
            .allSatisfy(h -> assertThat(h.score()).isLessThan(SearchRequest.SUGGESTED_THRESHOLD));
        assertThat(memory.search(SearchRequest.builder(ALICE, query).build()).hits())
            .as("the suggested threshold drops every one of them")
            .allSatisfy(h -> assertThat(h.score()).isLessThan(SearchRequest.SUGGESTED_THRESHOLD));
        assertThat(
                memory
                    .search(
                        SearchRequest.builder(ALICE, query)
                            .threshold(SearchRequest.SUGGESTED_THRESHOLD)
                            .build())
                    .hits())
            .isEmpty();
        assertThat(
                memory
                    .search(SearchRequest.builder(ALICE, query).threshold(best + 1e-4).build())
                    .hits())
            .as("a threshold over the best relevance of an off-topic query")
            .isEmpty();
      }
    }
    SearchHit pancakes =
        memory.search(SearchRequest.builder(ALICE, "zebra").explain(true).build()).hits().stream()
            .filter(h -> h.memory().text().startsWith("pancakes"))
            .findFirst()
            .orElseThrow();
    assertThat(pancakes.score())
        .as("the fusion ranks it second, by the word zebra in its context")
        .isGreaterThan(own(pancakes) + 1e-3);
  }

  /**
   * A hit's own relevance: its cosine ({@code details().semantic()}) through the test embedder's
   * calibration (the fallback on its floor 0: it ships no fitted map, so the keyword share is not
   * weighed).
   */
  private static double own(SearchHit h) {
    RelevanceCalibration map = new HashEmbedder().relevanceCalibration();
    assertThat(map.keywordSlope()).isZero();
    return map.probability(h.details().semantic());
  }

  @Test
  void theSuggestedThresholdDropsHitsOfLowRelevance() {
    addVerbatim(ALICE, "zebra");
    addVerbatim(ALICE, "pancakes for breakfast");
    List<SearchHit> all =
        memory.search(SearchRequest.builder(ALICE, "zebra").threshold(0).build()).hits();
    assertThat(SearchRequest.builder(ALICE, "zebra").build().threshold())
        .isEqualTo(SearchRequest.DEFAULT_THRESHOLD);
    assertThat(ids(memory.search(SearchRequest.builder(ALICE, "zebra").build()).hits()))
        .containsExactlyElementsOf(ids(all));
    List<SearchHit> cut =
        memory
            .search(
                SearchRequest.builder(ALICE, "zebra")
                    .threshold(SearchRequest.SUGGESTED_THRESHOLD)
                    .build())
            .hits();
    assertThat(ids(cut))
        .containsExactlyElementsOf(
            ids(all.stream().filter(h -> h.score() >= SearchRequest.SUGGESTED_THRESHOLD).toList()));
    assertThat(cut).hasSizeLessThan(all.size()).isNotEmpty();
  }

  @Test
  void aTokenBudgetKeepsTheBestMemoriesThatFitTogether() {
    addVerbatim(ALICE, "tea with lemon in the morning");
    addVerbatim(ALICE, "tea");
    addVerbatim(
        ALICE, "a long afternoon of green tea tasting with friends from the village near the lake");
    addVerbatim(ALICE, "iced tea in summer");
    addVerbatim(ALICE, "coffee at noon");
    // the fusion chooses which memories fit: walk its order (fused score, then id)
    List<SearchHit> ranked =
        new java.util.ArrayList<>(
            memory
                .search(SearchRequest.builder(ALICE, "tea").topK(100).explain(true).build())
                .hits());
    ranked.sort(
        java.util.Comparator.comparingDouble((SearchHit h) -> -h.details().fused())
            .thenComparing(h -> h.memory().id()));
    int budget = 12;
    List<String> expected = new java.util.ArrayList<>();
    int used = 0;
    for (SearchHit h : ranked) {
      int cost = dev.engram.TokenCounter.cl100k().count(h.memory().text());
      if (used + cost <= budget) {
        used += cost;
        expected.add(h.memory().id());
      }
    }
    assertThat(expected).isNotEmpty().hasSizeLessThan(ranked.size());
    List<SearchHit> fitted =
        memory.search(SearchRequest.builder(ALICE, "tea").maxTokens(budget).build()).hits();
    assertThat(ids(fitted)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(fitted)
        .extracting(SearchHit::score)
        .isSortedAccordingTo((a, b) -> Double.compare(b, a));
    assertThat(
            fitted.stream()
                .mapToInt(h -> dev.engram.TokenCounter.cl100k().count(h.memory().text()))
                .sum())
        .isLessThanOrEqualTo(budget);
    assertThat(
            memory
                .search(SearchRequest.builder(ALICE, "tea").maxTokens(budget).topK(1).build())
                .hits())
        .hasSize(1);
    assertThat(memory.search(SearchRequest.builder(ALICE, "tea").maxTokens(1000).build()).hits())
        .hasSize(ranked.size());
  }

  @Test
  void expiredMemoriesAreHiddenUnlessIncluded() {
    String live =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("the coupon for the bakery")
                    .expiration(TODAY.plusDays(1))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    String expired =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("the coupon for the cinema")
                    .expiration(TODAY)
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    String old =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("the coupon for the museum")
                    .expiration(TODAY.minusDays(3))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();

    assertThat(search(ALICE, "coupon")).containsExactly(live);
    assertThat(
            ids(
                memory
                    .search(SearchRequest.builder(ALICE, "coupon").includeExpired(true).build())
                    .hits()))
        .containsExactlyInAnyOrder(live, expired, old);
    assertThat(memory.list(ListRequest.of(ALICE)).items())
        .extracting(MemoryItem::id)
        .containsExactly(live);
    assertThat(memory.list(ListRequest.of(ALICE)).total()).isEqualTo(1);
    assertThat(memory.list(ListRequest.of(ALICE).withIncludeExpired(true)).items())
        .extracting(MemoryItem::id)
        .containsExactly(old, expired, live);
    assertThat(memory.get(expired)).isPresent();
  }
}
