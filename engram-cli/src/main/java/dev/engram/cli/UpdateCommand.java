package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.ValidationException;
import dev.engram.json.JsonInput;
import dev.engram.json.MemoryJson;
import java.time.LocalDate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code engram update ID}: changes a memory's text, metadata and/or expiration. */
@Command(
    name = "update",
    description = "Change a memory's text, metadata (replaced) and/or expiration date.")
final class UpdateCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The memory id.")
  String id;

  @Option(names = "--text", paramLabel = "TEXT", description = "The new text.")
  String text;

  @Option(
      names = "--metadata",
      paramLabel = "JSON",
      description = "The new metadata (a JSON object; replaces the old).")
  String metadata;

  @Option(
      names = "--expires",
      paramLabel = "DATE",
      converter = Converters.DateConverter.class,
      description = "New expiration date (ISO-8601).")
  LocalDate expires;

  @Option(names = "--no-expiry", description = "Remove the expiration date.")
  boolean noExpiry;

  @Override
  protected int run() {
    MemoryUpdate update = update();
    MemoryItem item;
    try (Memory memory = openMemory(false)) {
      item = memory.update(id, update);
    }
    if (json()) {
      printJson(MemoryJson.item(item));
    } else {
      Text.item(item).forEach(out()::println);
    }
    return EXIT_OK;
  }

  private MemoryUpdate update() {
    if (expires != null && noExpiry) {
      throw new ValidationException("expires", "--expires and --no-expiry exclude each other");
    }
    MemoryUpdate u = null;
    if (text != null) {
      u = MemoryUpdate.text(text);
    }
    if (metadata != null) {
      var m = JsonInput.metadata("metadata", metadata);
      u = u == null ? MemoryUpdate.metadata(m) : u.withMetadata(m);
    }
    if (expires != null || noExpiry) {
      u = u == null ? MemoryUpdate.expiration(expires) : u.withExpiration(expires);
    }
    if (u == null) {
      throw new ValidationException(
          "update", "nothing to change: give --text, --metadata, --expires or --no-expiry");
    }
    return u;
  }
}
