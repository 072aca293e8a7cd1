package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.json.MemoryJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code engram delete-all}: deletes every memory of a scope. */
@Command(name = "delete-all", description = "Delete every memory of a scope.")
final class DeleteAllCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Override
  protected int run() {
    Scope s = scope.scope();
    int deleted;
    try (Memory memory = openMemory(false)) {
      deleted = memory.deleteAll(s);
    }
    if (json()) {
      var o = MemoryJson.mapper().createObjectNode();
      o.put("message", "All relevant memories deleted");
      o.put("deleted", deleted);
      printJson(o);
    } else {
      out()
          .println(
              "deleted " + deleted + (deleted == 1 ? " memory" : " memories") + " of " + s.key());
    }
    return EXIT_OK;
  }
}
