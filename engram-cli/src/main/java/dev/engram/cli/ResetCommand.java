package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram reset --yes}: deletes every memory, history row and message window in the data
 * directory.
 */
@Command(
    name = "reset",
    description = "Delete ALL memories and history in the data directory (needs --yes).")
final class ResetCommand extends BaseCommand {
  @Option(
      names = "--yes",
      description = "Confirm that everything in the data directory may be deleted.")
  boolean yes;

  @Override
  protected int run() {
    if (!yes) {
      throw new ValidationException(
          "yes",
          "reset deletes every memory in '"
              + dataDir().toAbsolutePath()
              + "'; pass --yes to confirm");
    }
    try (Memory memory = openMemory(false)) {
      memory.reset();
    }
    if (json()) {
      var o = MemoryJson.mapper().createObjectNode();
      o.put("message", "Memory store reset successfully");
      printJson(o);
    } else {
      out().println("reset " + dataDir());
    }
    return EXIT_OK;
  }
}
