package dev.engram.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InstantTextTest {
  private static final long YEAR_0000 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long YEAR_10000 = Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

  @Test
  void writesWhatInstantToStringWritesAtTheEdgesOfTheFastPathAndPastThem() {
    List<Instant> edges =
        List.of(
            Instant.EPOCH,
            Instant.ofEpochSecond(YEAR_0000),
            Instant.ofEpochSecond(YEAR_0000 - 1, 999_999_999),
            Instant.ofEpochSecond(YEAR_10000 - 1, 999_999_999),
            Instant.ofEpochSecond(YEAR_10000),
            Instant.ofEpochSecond(-1, 1),
            Instant.parse("1969-12-31T23:59:59.999Z"),
            Instant.parse("2024-02-29T00:00:00.100Z"),
            Instant.parse("2024-05-08T13:56:00.000120Z"),
            Instant.parse("2024-05-08T13:56:07.000000001Z"),
            Instant.MIN,
            Instant.MAX);
    for (Instant at : edges) {
      assertThat(InstantText.of(at)).as(at.toString()).isEqualTo(at.toString());
    }
  }

  @Test
  void writesWhatInstantToStringWritesForAnySecondAndEachShapeOfFraction() {
    SplittableRandom random = new SplittableRandom(34);
    int[] fractionSteps = {1_000_000_000, 1_000_000, 1_000, 1};
    for (int i = 0; i < 200_000; i++) {
      long second = random.nextLong(YEAR_0000 - 86_400L * 366, YEAR_10000 + 86_400L * 366);
      int step = fractionSteps[i % fractionSteps.length];
      int nano = step == 1_000_000_000 ? 0 : random.nextInt(1_000_000_000 / step) * step;
      Instant at = Instant.ofEpochSecond(second, nano);
      assertThat(InstantText.of(at)).as(at.toString()).isEqualTo(at.toString());
    }
  }

  @Test
  void memoryJsonWritesTimesThroughIt() {
    Instant at = Instant.parse("2024-05-02T11:30:00.250Z");
    assertThat(MemoryJson.time(at)).isEqualTo("2024-05-02T11:30:00.250Z");
    assertThat(MemoryJson.time(null)).isNull();
  }
}
