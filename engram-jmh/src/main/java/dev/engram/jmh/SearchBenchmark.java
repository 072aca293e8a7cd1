package dev.engram.jmh;

import dev.engram.ListRequest;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.bench.scale.SyntheticMemories;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hybrid search (dense KNN + BM25 in the user's scope, fused, top 10, records read back from
 * SQLite) on an embedded store pre-filled with {@code memories} synthetic memories over {@code
 * users} users (100 per user by default), and listing a user's first page. Queries and users cycle
 * through a fixed, seeded sequence. Sample-time mode, so JMH reports percentiles.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class SearchBenchmark {
  private static final int QUERIES = 1024;

  @Param("10000")
  int memories;

  @Param("100")
  int users;

  private Fixture fixture;
  private final String[] queries = new String[QUERIES];
  private final Scope[] scopes = new Scope[QUERIES];
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = Fixture.filled(memories, users, 42);
    SyntheticMemories generator = new SyntheticMemories(7);
    Random random = new Random(7);
    for (int i = 0; i < QUERIES; i++) {
      queries[i] = generator.query();
      scopes[i] = Scope.user(Fixture.user(random.nextInt(users)));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    fixture.close();
  }

  @Benchmark
  public SearchResult hybridSearch() {
    int i = next++ & (QUERIES - 1);
    return fixture.memory.search(SearchRequest.builder(scopes[i], queries[i]).topK(10).build());
  }

  @Benchmark
  public void listFirstPage(Blackhole bh) {
    int i = next++ & (QUERIES - 1);
    bh.consume(fixture.memory.list(ListRequest.of(scopes[i])));
  }
}
