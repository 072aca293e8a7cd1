package dev.engram.embedded;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.testing.HashEmbedder;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

/**
 * The child of {@link GraphCrashTest}: {@code GraphCrashWriter <dataDir> <round> <seed>} adds
 * messages with the offline graph on until it is killed, printing {@code ACK add <memory id>} after
 * each add returned.
 */
public final class GraphCrashWriter {
  private static final String[] CITIES = {"Paris", "Lisbon", "Oslo", "Quito"};

  private GraphCrashWriter() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int round = Integer.parseInt(args[1]);
    Random random = new Random(Long.parseLong(args[2]));
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .indexCommitInterval(Duration.ofMillis(20 + random.nextInt(200)))
            .build();
    out.println("READY");
    out.flush();
    for (int n = 0; ; n++) {
      String text =
          "I met Zed" + round + "x" + n + " in " + CITIES[random.nextInt(CITIES.length)] + ".";
      for (MemoryEvent e :
          memory
              .add(
                  AddRequest.builder(Scope.user("crash"))
                      .message(new Message(Role.USER, text, "Ann", null, null))
                      .build())
              .events()) {
        out.print("ACK add " + e.id() + "\n");
      }
      out.flush();
      if (out.checkError()) {
        System.exit(3);
      }
    }
  }
}
