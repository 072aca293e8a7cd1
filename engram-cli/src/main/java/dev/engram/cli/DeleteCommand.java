package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code engram delete ID}: deletes one memory (its history stays). */
@Command(name = "delete", description = "Delete one memory (its history stays).")
final class DeleteCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The memory id.")
  String id;

  @Override
  protected int run() {
    try (Memory memory = openMemory(false)) {
      memory.delete(id);
    }
    if (json()) {
      var o = MemoryJson.mapper().createObjectNode();
      o.put("message", "Memory deleted successfully!");
      o.put("id", id);
      printJson(o);
    } else {
      out().println("deleted " + id);
    }
    return EXIT_OK;
  }
}
