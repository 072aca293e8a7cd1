package dev.engram.jmh;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.bench.scale.SyntheticMemories;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Verbatim adds ({@code infer=false}): one memory per {@code add}, and a batch of ten per {@code
 * addBatch} (one transaction). Each call embeds (with the cheap hashing embedder), writes the
 * SQLite record, history and message window in one transaction, and updates the Lucene index. The
 * store starts empty for every trial and grows during it (to some tens of thousands of memories
 * over 100 users); texts are pre-generated.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class AddBenchmark {
  private static final int PREPARED = 1 << 14;
  private static final int USERS = 100;

  private Fixture fixture;
  private final AddRequest[] requests = new AddRequest[PREPARED];
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = Fixture.open();
    SyntheticMemories generator = new SyntheticMemories(42);
    for (int i = 0; i < PREPARED; i++) {
      requests[i] = Fixture.request(Fixture.user(i % USERS), generator.next());
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    fixture.close();
  }

  @Benchmark
  public AddResult addSingle() {
    return fixture.memory.add(requests[next++ & (PREPARED - 1)]);
  }

  @Benchmark
  public List<AddResult> addBatchOfTen() {
    List<AddRequest> batch = new ArrayList<>(10);
    for (int i = 0; i < 10; i++) {
      batch.add(requests[next++ & (PREPARED - 1)]);
    }
    return fixture.memory.addBatch(batch);
  }
}
