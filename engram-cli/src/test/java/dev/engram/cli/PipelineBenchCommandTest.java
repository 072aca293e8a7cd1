package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code engram bench pipeline} on the project's mini LoCoMo fixture (scripted model: no LLM runs).
 */
class PipelineBenchCommandTest {

  @Test
  void countsCallsPerAddAndMemoriesForBothPipelines() {
    Cli.Result r = Cli.raw("bench", "pipeline", "--data", Cli.benchMiniLocomo());
    assertThat(r.exitCode()).as(r.err()).isZero();
    // 7 turns in pairs per session: 4 adds. The observations are first cited by D1:1, D1:2, D2:1
    // and D2:3, so
    // three adds have facts (extraction + decision: 2 calls) and one has none (1 call): 7 / 4 =
    // 1.75 calls per add.
    assertThat(r.out())
        .containsPattern("\\| consolidate \\| 4 \\| 1\\.75 \\| \\d+ \\| \\d+ \\| 4 \\|");
    // The additive pipeline makes one call per add and stores the same four observations.
    assertThat(r.out())
        .containsPattern("\\| additive \\| 4 \\| 1\\.00 \\| \\d+ \\| \\d+ \\| 4 \\|");
  }

  @Test
  void aMissingFileIsBadInput() {
    Cli.Result r = Cli.raw("bench", "pipeline", "--data", "no-such-file.json");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("no such file");
  }
}
