package dev.engram.cli;

import dev.engram.HistoryEntry;
import dev.engram.Memory;
import dev.engram.json.MemoryJson;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code engram history ID}: a memory's audit trail, oldest first. */
@Command(name = "history", description = "Show a memory's changes, oldest first.")
final class HistoryCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The memory id.")
  String id;

  @Override
  protected int run() {
    List<HistoryEntry> rows;
    try (Memory memory = openMemory(false)) {
      rows = memory.history(id);
    }
    if (json()) {
      printJson(MemoryJson.history(rows));
    } else if (rows.isEmpty()) {
      out().println("no history for " + id);
    } else {
      rows.forEach(h -> out().println(Text.history(h)));
    }
    return EXIT_OK;
  }
}
