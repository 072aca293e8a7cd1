package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.engine.VerbatimInference;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A message longer than the passage limit, through the library with the real ONNX embedder: one
 * memory per passage, each with the message's provenance and its offsets, and its end found by
 * meaning although the embedder reads only a text's first 512 wordpieces.
 */
class LongMessagePassagesTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant SAID = Instant.parse("2026-03-02T10:15:30Z");

  @TempDir Path tmp;

  /** About 2,700 tokens on the deployment, then, at the very end, one paragraph on a dog. */
  static String longAnswer() {
    StringBuilder text = new StringBuilder("Here is the deployment plan you asked for.\n\n");
    for (int i = 0; i < 60; i++) {
      text.append("Step ")
          .append(i)
          .append(": configure the Kubernetes ingress controller, rotate the TLS certificates ")
          .append("of cluster node ")
          .append(i)
          .append(", run the database migration and check the load balancer health probes ")
          .append("before the rollout continues to the next availability zone.\n\n");
    }
    text.append("```yaml\nreplicas: 3\nimage: api:2.4.1\n```\n\n");
    text.append(
        "One more thing, unrelated: my golden retriever Biscuit loves swimming in the lake and "
            + "chasing ducks every Sunday morning.");
    return text.toString();
  }

  @Test
  void aLongMessageBecomesPassagesWithItsProvenanceAndOffsets() {
    String answer = longAnswer();
    try (Memory memory = Engram.builder().embedded(tmp.resolve("raw")).build()) {
      Message said =
          Message.assistant(answer).withName("Assistant").withSourceId("s1:7").withTimestamp(SAID);
      memory.add(AddRequest.builder(ALICE).message(said).infer(false).build());
      memory.add(AddRequest.builder(ALICE).user("I prefer short answers.").infer(false).build());

      List<MemoryItem> items = memory.list(ALICE).items();
      List<MemoryItem> passages =
          items.stream()
              .filter(m -> m.metadata().containsKey(MemoryItem.PASSAGE_START))
              .sorted(Comparator.comparingInt(LongMessagePassagesTest::start))
              .toList();
      assertThat(passages).hasSizeGreaterThan(5);
      int previousEnd = 0;
      for (MemoryItem p : passages) {
        assertThat(p.sourceIds()).containsExactly("s1:7");
        assertThat(p.actorId()).isEqualTo("Assistant");
        assertThat(p.role()).isEqualTo(Role.ASSISTANT);
        assertThat(p.eventTime()).isEqualTo(SAID);
        int start = start(p);
        int end = ((Number) p.metadata().get(MemoryItem.PASSAGE_END)).intValue();
        assertThat(answer.substring(start, end)).isEqualTo(p.text());
        assertThat(answer.substring(previousEnd, start)).isBlank();
        previousEnd = end;
      }
      assertThat(answer.substring(previousEnd)).isBlank();
      // the code block is one passage's, whole
      assertThat(passages).anySatisfy(p -> assertThat(p.text()).contains("replicas: 3\nimage"));
      // a short message is untouched: whole, no offsets
      MemoryItem shortOne =
          items.stream().filter(m -> m.text().equals("I prefer short answers.")).findFirst().get();
      assertThat(shortOne.metadata()).doesNotContainKeys(MemoryItem.PASSAGE_START);

      // the message's end is found by meaning: the dog is in no word of the query. It scores the
      // best relevance; the short message shares it, lifted by the fusion's support, and may come
      // first, as the passages step discounts the fused score of a passage of a long message
      List<SearchHit> hits = memory.search(ALICE, "What pet does the user have?", 3).hits();
      assertThat(hits.subList(0, 2))
          .anySatisfy(h -> assertThat(h.memory().text()).contains("golden retriever Biscuit"));
      SearchHit dog =
          hits.stream()
              .filter(h -> h.memory().text().contains("golden retriever Biscuit"))
              .findFirst()
              .orElseThrow();
      assertThat(dog.score()).isEqualTo(hits.get(0).score());
    }
  }

  @Test
  void aLongMessageTakesOnePlaceUntilTheOtherMessagesHaveTheirs() {
    try (Memory memory = Engram.builder().embedded(tmp.resolve("one-place")).build()) {
      memory.add(
          AddRequest.builder(ALICE)
              .message(Message.assistant(longAnswer()).withSourceId("s1:7"))
              .infer(false)
              .build());
      memory.add(AddRequest.builder(ALICE).user("I prefer short answers.").infer(false).build());
      String query = "How does the rollout reach the next availability zone?";
      // every passage of the plan is nearer the query than the short message, yet the plan takes
      // one of two places: its further passages wait behind the other message
      List<SearchHit> two =
          memory
              .search(
                  SearchRequest.builder(ALICE, query)
                      .topK(2)
                      .threshold(0)
                      .ranking(Ranking.NONE)
                      .build())
              .hits();
      assertThat(two).hasSize(2);
      assertThat(two)
          .filteredOn(h -> h.memory().metadata().containsKey(MemoryItem.PASSAGE_START))
          .hasSize(1);
      assertThat(two).anySatisfy(h -> assertThat(h.memory().text()).startsWith("I prefer"));
      // with room for more, the plan's further passages follow
      List<SearchHit> four =
          memory
              .search(
                  SearchRequest.builder(ALICE, query)
                      .topK(4)
                      .threshold(0)
                      .ranking(Ranking.NONE)
                      .build())
              .hits();
      assertThat(four)
          .filteredOn(h -> h.memory().metadata().containsKey(MemoryItem.PASSAGE_START))
          .hasSize(3);
    }
  }

  @Test
  void aPassageIsEmbeddedAsItsWordsAndStoredAsWritten() {
    List<String> embedded = new CopyOnWriteArrayList<>();
    Embedder recording =
        new ForwardingEmbedder(OnnxEmbedders.defaultEmbedder()) {
          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            embedded.addAll(texts);
            return super.embedDocuments(texts);
          }
        };
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.at(tmp.resolve("folded")))
            .embedder(recording)
            .build()) {
      memory.add(
          AddRequest.builder(ALICE)
              .message(Message.assistant(longAnswer()).withSourceId("s1:9"))
              .infer(false)
              .build());
      memory.add(AddRequest.builder(ALICE).user("I prefer `short` answers!").infer(false).build());

      List<MemoryItem> items = memory.list(ALICE).items();
      assertThat(items)
          .anySatisfy(m -> assertThat(m.text()).contains("```yaml\nreplicas: 3\nimage: api:2.4.1"));
      // the passages reached the model as their words: the fence's backticks and the colon inside
      // "api:2.4.1" are gone, the colons after words and the version's full stops stay
      assertThat(embedded).noneSatisfy(t -> assertThat(t).contains("```"));
      assertThat(embedded)
          .anySatisfy(t -> assertThat(t).contains("yaml\nreplicas: 3\nimage: api 2.4.1\n"));
      // a whole message reaches it as written
      assertThat(embedded).contains("I prefer `short` answers!");
    }
  }

  @Test
  void verbatimInferenceSplitsAtTheEnginesLimit() {
    String answer = longAnswer();
    try (Memory memory =
        Engram.builder()
            .embedded(tmp.resolve("verbatim"))
            .inference(new VerbatimInference())
            .passageTokens(1_000)
            .build()) {
      memory.add(
          AddRequest.builder(ALICE)
              .message(Message.assistant(answer).withSourceId("s1:8"))
              .build());
      List<MemoryItem> items = memory.list(ALICE).items();
      assertThat(items).hasSizeBetween(3, 6);
      assertThat(items).allSatisfy(m -> assertThat(m.sourceIds()).containsExactly("s1:8"));
      assertThat(items)
          .allSatisfy(m -> assertThat(m.metadata()).containsKeys(MemoryItem.PASSAGE_END));
    }
  }

  private static int start(MemoryItem m) {
    return ((Number) m.metadata().get(MemoryItem.PASSAGE_START)).intValue();
  }
}
