package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.LocomoReport.Baseline;
import dev.engram.bench.locomo.RagBaseline.Chunk;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Chunking and retrieval of the RAG baselines on the mini fixture. The seven lines and their cl100k
 * counts (counted once with jtokkit and written down here) are: L1 "Ada: Hi Ben! I finally adopted
 * a grey cat called Pixel." 14, L2 "Ben: Congrats Ada! I started a new job as a baker in Porto."
 * 17, L3 "Ada: A baker! Do you bake sourdough bread every morning?" 15, L4 "Ben: Yes, sourdough and
 * croissants, from five o'clock." 17, L5 "Ada: Pixel knocked my violin off the shelf yesterday."
 * 11, L6 "Ben: Oh no! Is the violin broken?" 10, L7 "Ada: Only a string. I play in a quartet on
 * Fridays." 15. A newline after a full stop merges into one token ".\n", so joined lines count:
 * L1+L2 31, L1..L3 46, L3+L4 32, L3..L5 43, L5+L6 21, L5..L7 36; all seven 99.
 */
class RagBaselineTest {
  private static final Conversation MINI = LocomoReader.read(LocomoReaderTest.fixture()).get(0);

  @Test
  void linesCountAsWrittenInTheClassComment() {
    assertThat(RagBaseline.fullText(MINI).lines().map(TokenCounter.cl100k()::count).toList())
        .containsExactly(14, 17, 15, 17, 11, 10, 15);
    assertThat(TokenCounter.cl100k().count(RagBaseline.fullText(MINI))).isEqualTo(99);
  }

  @Test
  void packsWholeConsecutiveTurnsAcrossSessionsUpToTheSize() {
    // Size 32: L1+L2 = 31 fits, adding L3 gives 46; L3+L4 = 32 fits exactly, adding L5 gives 43;
    // L5+L6 = 21,
    // adding L7 gives 36; L7 alone.
    List<Chunk> chunks = RagBaseline.chunks(MINI, 32);
    assertThat(chunks)
        .extracting(Chunk::diaIds)
        .containsExactly(
            List.of("D1:1", "D1:2"),
            List.of("D1:3", "D1:4"),
            List.of("D2:1", "D2:2"),
            List.of("D2:3"));
    assertThat(chunks).extracting(Chunk::tokens).containsExactly(31, 32, 21, 15);
    assertThat(chunks.get(2).text())
        .isEqualTo(
            "Ada: Pixel knocked my violin off the shelf yesterday.\n"
                + "Ben: Oh no! Is the violin broken?");
    // Size 10: no two lines fit together; lines longer than 10 tokens are chunks of their own,
    // never split.
    assertThat(RagBaseline.chunks(MINI, 10))
        .extracting(Chunk::tokens)
        .containsExactly(14, 17, 15, 17, 11, 10, 15);
    // The paper's smallest size already holds the whole fixture.
    assertThat(RagBaseline.chunks(MINI, 128))
        .singleElement()
        .satisfies(c -> assertThat(c.diaIds()).hasSize(7))
        .satisfies(c -> assertThat(c.tokens()).isEqualTo(99));
  }

  @Test
  void retrievesTheChunksOfHighestCosineWithTiesToTheEarlierChunk() {
    // Vocabulary vectors of the four 32-token chunks: C1 {cat, pixel, baker, porto}, C2 {baker,
    // sourdough},
    // C3 {pixel, violin}, C4 {quartet}. Query "baker": C1 1/2, C2 1/sqrt(2) -> C2 first, then C1.
    WordEmbedder words =
        new WordEmbedder("cat", "pixel", "violin", "baker", "porto", "sourdough", "quartet");
    RagBaseline rag = RagBaseline.index(MINI, 32, words);
    assertThat(rag.top(words.embedQuery("baker"), 2))
        .extracting(c -> c.diaIds().get(0))
        .containsExactly("D1:3", "D1:1");
    // "quartet" matches C4 only; the other three tie at 0 and come in chunk order.
    assertThat(rag.top(words.embedQuery("quartet"), 4))
        .extracting(c -> c.diaIds().get(0))
        .containsExactly("D2:3", "D1:1", "D1:3", "D2:1");
    assertThat(rag.top(words.embedQuery("quartet"), 9)).hasSize(4);
  }

  @Test
  void scoresEachBaselineWithTheSameMetricsAsEngram() {
    // The five scored questions and their vocabulary words: Q1 cat (evidence D1:1, answer Pixel),
    // Q2 baker (D1:2,
    // Porto), Q3 pixel+violin (D2:1, "11 April 2024"), Q4 cat (D1:1 and D2:1, "Pixel knocked her
    // violin over"),
    // Q5 cat (D1:1, "2024"). Cosines with C1..C4 (see above): Q1, Q4, Q5 -> C1 1/2, others 0; Q2 ->
    // C2 0.707,
    // C1 0.5; Q3 -> C3 1, C1 0.354.
    WordEmbedder words =
        new WordEmbedder("cat", "pixel", "violin", "baker", "porto", "sourdough", "quartet");
    ReportBuilder report =
        new ReportBuilder(
            "mini", "raw", "conversation", 1, false, false, 10, words.modelId(), "rrf");
    Baselines.measure(MINI, words, List.of(32), LocomoBench.Hooks.none(), report);
    List<Baseline> baselines = report.build().baselines();
    assertThat(baselines)
        .extracting(Baseline::name)
        .containsExactly("rag-32-k1", "rag-32-k2", "full-context");

    // k=1: Q1 C1, Q2 C2, Q3 C3, Q4 C1, Q5 C1.
    // Evidence recall (1 + 0 + 1 + 1/2 + 1) / 5 = 0.7; hit (1 + 0 + 1 + 1 + 1) / 5 = 0.8.
    // Answer tokens: Q1 pixel in C1 -> 1; Q2 porto not in C2 -> 0; Q3 {11, april, 2024} -> 0;
    // Q4 {pixel, knocked, violin, over}: only pixel in C1 -> 1/4; Q5 {2024} -> 0. Mean 1.25 / 5 =
    // 0.25.
    // Context tokens (31 + 32 + 21 + 31 + 31) / 5 = 29.2.
    Baseline k1 = baselines.get(0);
    assertThat(k1.evidenceRecall()).isCloseTo(0.7, within(1e-12));
    assertThat(k1.hit()).isCloseTo(0.8, within(1e-12));
    assertThat(k1.answerTokenRecall()).isCloseTo(0.25, within(1e-12));
    assertThat(k1.contextTokensMean()).isCloseTo(29.2, within(1e-12));

    // k=2: Q1 C1+C2 (C2..C4 tie at 0, the earliest wins), Q2 C2+C1, Q3 C3+C1, Q4 C1+C2, Q5 C1+C2.
    // Evidence recall (1 + 1 + 1 + 1/2 + 1) / 5 = 0.9; hit 1. Answer tokens (1 + 1 + 0 + 1/4 + 0) /
    // 5 = 0.45.
    Baseline k2 = baselines.get(1);
    assertThat(k2.evidenceRecall()).isCloseTo(0.9, within(1e-12));
    assertThat(k2.hit()).isEqualTo(1.0);
    assertThat(k2.answerTokenRecall()).isCloseTo(0.45, within(1e-12));
    List<Chunk> c = RagBaseline.chunks(MINI, 32);
    double c1c2 = TokenCounter.cl100k().count(c.get(0).text() + "\n" + c.get(1).text());
    double c2c1 = TokenCounter.cl100k().count(c.get(1).text() + "\n" + c.get(0).text());
    double c3c1 = TokenCounter.cl100k().count(c.get(2).text() + "\n" + c.get(0).text());
    assertThat(k2.contextTokensMean()).isCloseTo((3 * c1c2 + c2c1 + c3c1) / 5, within(1e-12));

    // Full context: every dia_id, so evidence recall and hit are 1; 99 tokens for every question.
    // Its answer
    // tokens are those of the raw turns: Pixel 1, Porto 1, {11, april, 2024} 0, 3/4, {2024} 0 ->
    // 0.55.
    Baseline full = baselines.get(2);
    assertThat(full.evidenceRecall()).isEqualTo(1.0);
    assertThat(full.hit()).isEqualTo(1.0);
    assertThat(full.contextTokensMean()).isEqualTo(99.0);
    assertThat(full.answerTokenRecall()).isCloseTo(0.55, within(1e-12));
  }
}
