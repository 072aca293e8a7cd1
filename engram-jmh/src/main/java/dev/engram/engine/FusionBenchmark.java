package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The fusion of the dense and keyword candidate lists alone ({@code RankFusion.fuse},
 * package-private, hence this benchmark's package): two lists of {@code candidates} ids each (the
 * engine's default pool is 50), half of the keyword ids also in the dense list, as in a typical
 * hybrid query.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FusionBenchmark {
  @Param({"RRF", "WEIGHTED"})
  Fusion fusion;

  @Param("50")
  int candidates;

  private List<Candidate> dense;
  private List<Candidate> keyword;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < candidates * 2; i++) {
      ids.add(new UUID(random.nextLong(), random.nextLong()).toString());
    }
    dense = new ArrayList<>();
    keyword = new ArrayList<>();
    for (int i = 0; i < candidates; i++) {
      dense.add(new Candidate(ids.get(i), 0.9 - i * 0.01));
      // every other keyword hit is also a dense hit
      String id = i % 2 == 0 ? ids.get(i) : ids.get(candidates + i);
      keyword.add(new Candidate(id, 12.0 - i * 0.2));
    }
  }

  @Benchmark
  public void fuse(Blackhole bh) {
    bh.consume(RankFusion.fuse(fusion, dense, keyword));
  }
}
