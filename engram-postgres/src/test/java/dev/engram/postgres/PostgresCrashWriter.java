package dev.engram.postgres;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.testing.HashEmbedder;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The child of {@link PostgresCrashTest}: {@code PostgresCrashWriter <url> <schema> <vectors>}
 * opens Engram on the schema, on the vector path {@code vectors} ({@code array} or {@code
 * pgvector}), and writes until it is killed, from two threads: each adds a memory, updates every
 * third one and deletes every fifth one. Output, one flushed line per acknowledged write, printed
 * only after the call returned: {@code ACK add <id>}, {@code ACK update <id> <text>}, {@code ACK
 * delete <id>}.
 */
public final class PostgresCrashWriter {
  private PostgresCrashWriter() {}

  public static void main(String[] args) throws InterruptedException {
    PostgresSettings settings =
        PostgresSettings.builder(args[0])
            .user("postgres")
            .password(PostgresCluster.PASSWORD)
            .schema(args[1])
            .poolSize(4)
            .vectors(VectorMode.parse(args[2]))
            .build();
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    Memory memory =
        Engram.builder()
            .storage(PostgresStorage.open(settings, 64))
            .embedder(new HashEmbedder())
            .build();
    Thread[] writers = new Thread[2];
    for (int t = 0; t < writers.length; t++) {
      int thread = t;
      writers[t] =
          new Thread(() -> write(memory, Scope.user("crash-" + thread), out), "writer-" + t);
      writers[t].start();
    }
    for (Thread w : writers) {
      w.join();
    }
  }

  private static void write(Memory memory, Scope scope, PrintStream out) {
    for (int i = 0; ; i++) {
      String id =
          memory
              .add(
                  AddRequest.builder(scope)
                      .user("fact " + scope.userId().orElseThrow() + " number " + i)
                      .infer(false)
                      .build())
              .events()
              .get(0)
              .id();
      ack(out, "ACK add " + id);
      if (i % 3 == 0) {
        String text = "changed fact " + i;
        memory.update(id, MemoryUpdate.text(text));
        ack(out, "ACK update " + id + " " + text);
      }
      if (i % 5 == 0) {
        memory.delete(id);
        ack(out, "ACK delete " + id);
      }
    }
  }

  private static void ack(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
