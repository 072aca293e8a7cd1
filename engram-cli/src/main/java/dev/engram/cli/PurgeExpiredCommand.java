package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;

/** {@code engram purge-expired}: deletes the memories whose expiration date has come. */
@Command(
    name = "purge-expired",
    description = "Delete memories whose expiration date is today or earlier.")
final class PurgeExpiredCommand extends BaseCommand {
  @Override
  protected int run() {
    int purged;
    try (Memory memory = openMemory(false)) {
      purged = memory.purgeExpired();
    }
    if (json()) {
      var o = MemoryJson.mapper().createObjectNode();
      o.put("purged", purged);
      printJson(o);
    } else {
      out().println("purged " + purged + (purged == 1 ? " expired memory" : " expired memories"));
    }
    return EXIT_OK;
  }
}
