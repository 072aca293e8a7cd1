package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code engram get ID}: one memory. */
@Command(name = "get", description = "Show one memory.")
final class GetCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The memory id.")
  String id;

  @Override
  protected int run() {
    MemoryItem item;
    try (Memory memory = openMemory(false)) {
      item = memory.get(id).orElseThrow(() -> new MemoryNotFoundException(id));
    }
    if (json()) {
      printJson(MemoryJson.item(item));
    } else {
      Text.item(item).forEach(out()::println);
    }
    return EXIT_OK;
  }
}
