package dev.engram.jmh;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.bench.scale.HashingEmbedder;
import dev.engram.bench.scale.SyntheticMemories;
import dev.engram.embedded.EmbeddedStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A memory on the embedded store in a temporary data directory, with {@link HashingEmbedder} (so
 * that no model cost is measured), optionally pre-filled with synthetic memories spread evenly over
 * users {@code user-0} to {@code user-(users-1)}. Closing it deletes the directory.
 */
final class Fixture implements AutoCloseable {
  static final HashingEmbedder EMBEDDER = HashingEmbedder.create();

  final Memory memory;
  private final Path dir;

  private Fixture(Path dir, Memory memory) {
    this.dir = dir;
    this.memory = memory;
  }

  /** An empty memory. */
  static Fixture open() {
    try {
      Path dir = Files.createTempDirectory("engram-jmh-");
      Memory memory = Engram.builder().storage(EmbeddedStorage.at(dir)).embedder(EMBEDDER).build();
      return new Fixture(dir, memory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary data directory", e);
    }
  }

  /**
   * A memory holding {@code memories} synthetic memories over {@code users} users, added in batches
   * of 1000.
   */
  static Fixture filled(int memories, int users, long seed) {
    Fixture f = open();
    SyntheticMemories generator = new SyntheticMemories(seed);
    List<AddRequest> batch = new ArrayList<>(1000);
    for (int i = 0; i < memories; i++) {
      batch.add(request(user(i % users), generator.next()));
      if (batch.size() == 1000 || i == memories - 1) {
        f.memory.addBatch(batch);
        batch.clear();
      }
    }
    return f;
  }

  static String user(int i) {
    return "user-" + i;
  }

  /** A verbatim add ({@code infer=false}) of one synthetic fact. */
  static AddRequest request(String user, SyntheticMemories.Fact fact) {
    return AddRequest.builder(Scope.user(user))
        .message(new Message(Role.USER, fact.text(), null, fact.eventTime(), null))
        .metadata(fact.metadata())
        .infer(false)
        .build();
  }

  @Override
  public void close() {
    try {
      memory.close();
    } finally {
      DataDirectories.deleteTree(dir);
    }
  }
}
