package dev.engram.embedded;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.testing.HashEmbedder;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The child of {@link CrashRecoveryTest}: {@code CrashWriter <dataDir> <round> <seed>} opens Engram
 * on the data directory and changes memories until it is killed. Each memory text holds a unique
 * token (second word, for example {@code r3n17}). Output protocol, one line per write, flushed:
 *
 * <ul>
 *   <li>{@code TRY update <id> <text>} / {@code TRY delete <id>}: printed before the call;
 *   <li>{@code ACK add <id> <text>}, {@code ACK update <id> <text>}, {@code ACK delete <id>}:
 *       printed only after the call returned, so every ACK is a write that was acknowledged to the
 *       caller.
 * </ul>
 */
public final class CrashWriter {
  /** The scopes the writer uses. */
  static final List<Scope> SCOPES = List.of(Scope.user("crash-a"), Scope.user("crash-b"));

  private static final String[] WORDS = {
    "apples", "rivers", "violins", "tickets", "gardens", "clouds", "engines"
  };

  private final Memory memory;
  private final Random random;
  private final int round;
  private final PrintStream out;
  private final List<String> live = new ArrayList<>();
  private int counter;

  private CrashWriter(Memory memory, Random random, int round, PrintStream out) {
    this.memory = memory;
    this.random = random;
    this.round = round;
    this.out = out;
  }

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
            .indexCommitInterval(Duration.ofMillis(20 + random.nextInt(400)))
            .build();
    CrashWriter writer = new CrashWriter(memory, random, round, out);
    writer.loadLive();
    out.println("READY");
    out.flush();
    while (true) {
      writer.step();
    }
  }

  private void loadLive() {
    for (Scope s : SCOPES) {
      int offset = 0;
      while (true) {
        Page<MemoryItem> page =
            memory.list(ListRequest.of(s).withPage(offset, 500).withIncludeExpired(true));
        page.items().forEach(m -> live.add(m.id()));
        if (!page.hasMore()) {
          break;
        }
        offset += page.items().size();
      }
    }
  }

  private String newText(char kind) {
    return "note r" + round + kind + (counter++) + " about " + WORDS[random.nextInt(WORDS.length)];
  }

  private void step() {
    int p = random.nextInt(100);
    if (p < 60 || live.size() < 3) {
      add();
    } else if (p < 82) {
      String id = live.get(random.nextInt(live.size()));
      String text = newText('u');
      emit("TRY update " + id + " " + text);
      memory.update(id, MemoryUpdate.text(text));
      emit("ACK update " + id + " " + text);
    } else {
      String id = live.remove(random.nextInt(live.size()));
      emit("TRY delete " + id);
      memory.delete(id);
      emit("ACK delete " + id);
    }
  }

  private void add() {
    Scope scope = SCOPES.get(random.nextInt(SCOPES.size()));
    AddRequest.Builder b = AddRequest.builder(scope).infer(false);
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      b.message(i % 2 == 0 ? Message.user(newText('n')) : Message.assistant(newText('n')));
    }
    List<MemoryEvent> events = memory.add(b.build()).events();
    StringBuilder lines = new StringBuilder();
    for (MemoryEvent e : events) {
      live.add(e.id());
      lines.append("ACK add ").append(e.id()).append(' ').append(e.memory()).append('\n');
    }
    out.print(lines);
    flush();
  }

  private void emit(String line) {
    out.print(line + "\n");
    flush();
  }

  /** Flushes, and exits if the parent stopped listening (so an orphaned writer never runs on). */
  private void flush() {
    out.flush();
    if (out.checkError()) {
      System.exit(3);
    }
  }
}
