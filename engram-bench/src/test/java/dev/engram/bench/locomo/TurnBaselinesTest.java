package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Fusion;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.Options;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-turn baselines on the mini fixture (its seven lines and their cl100k counts are in {@link
 * RagBaselineTest}'s comment: 14, 17, 15, 17, 11, 10, 15).
 */
class TurnBaselinesTest {
  private static final Conversation MINI = LocomoReader.read(LocomoReaderTest.fixture()).get(0);

  @TempDir Path work;

  @Test
  void bm25RanksTheTurnsThatShareTheRarestTermsFirst() {
    TurnBaselines index = TurnBaselines.index(MINI, new HashEmbedder());
    // "violin" is in L5 and L6 only; L6 is shorter, so it scores higher; "quartet" only in L7
    List<String> ids =
        index.top(index.bm25("Is the violin broken?"), 3).stream().map(Turn::diaId).toList();
    assertThat(ids).containsExactly("D2:2", "D2:1", "D1:1");
    assertThat(index.top(index.bm25("quartet"), 1)).extracting(Turn::diaId).containsExactly("D2:3");
  }

  @Test
  void aBudgetSkipsATurnThatWouldOverflowItAndTakesAShorterOneBelow() {
    TurnBaselines index = TurnBaselines.index(MINI, new HashEmbedder());
    // order L2 (17), L4 (17), L6 (10), L1 (14): 17 + 17 = 34 of 45, L6 fits (44), L1 does not
    List<Turn> taken = index.within(List.of(1, 3, 5, 0), 45);
    assertThat(taken).extracting(Turn::diaId).containsExactly("D1:2", "D1:4", "D2:2");
  }

  @Test
  void withoutTheRagBaselinesOnlyThePerTurnOnesAreMeasured() {
    Options o =
        new Options(LocomoReaderTest.fixture(), Mode.RAW, 10, Fusion.RRF, 0, work)
            .toBuilder().ragBaselines(false).build();
    LocomoReport r = LocomoBench.run(o, new HashEmbedder(), n -> {});
    assertThat(r.baselines())
        .extracting(LocomoReport.Baseline::name)
        .containsExactlyElementsOf(TurnBaselines.names());
    // top-10 of seven turns holds them all
    assertThat(r.baselines().get(0).evidenceRecall()).isEqualTo(1.0);
    assertThat(LocomoBench.progressTotal(o)).isEqualTo(7 + 5 + 7);
  }
}
