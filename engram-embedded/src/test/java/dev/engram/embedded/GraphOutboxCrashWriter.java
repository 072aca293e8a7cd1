package dev.engram.embedded;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.spi.StorageWithGraph;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;

/**
 * The child of {@link GraphOutboxTest}'s crash test: {@code GraphOutboxCrashWriter <dataDir>
 * <graphDb> <text>...} adds each text verbatim with a separate SQLite graph store, printing {@code
 * ACK <n>} after each add returned, and halts (exit status 9) on the graph store's first apply
 * after {@code acks} adds, where acks is the first argument after the graph file: the process dies
 * between the memory commit and the graph commit of that add.
 */
public final class GraphOutboxCrashWriter {
  private GraphOutboxCrashWriter() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    SqliteMemoryStore graphDb = SqliteMemoryStore.open(Path.of(args[1]), Durability.NORMAL);
    int healthyAdds = Integer.parseInt(args[2]);
    FaultyGraphStore graph = new FaultyGraphStore(graphDb.graph());
    Memory memory =
        Engram.builder()
            .storage(StorageWithGraph.of(EmbeddedStorage.open(dir, 64), graph))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .clock(GraphOutboxTest.CLOCK)
            .build();
    for (int i = 3; i < args.length; i++) {
      if (i - 3 == healthyAdds) {
        graph.haltOnApply();
      }
      memory.add(
          AddRequest.builder(GraphOutboxTest.ALICE)
              .message(new Message(Role.USER, args[i], "Alice", GraphOutboxTest.AT, null))
              .infer(false)
              .build());
      System.out.println("ACK " + (i - 3));
      System.out.flush();
    }
    memory.close();
    graphDb.close();
  }
}
