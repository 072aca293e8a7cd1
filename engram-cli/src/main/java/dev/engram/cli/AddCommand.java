package dev.engram.cli;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.json.JsonInput;
import dev.engram.json.MemoryJson;
import java.time.Instant;
import java.time.LocalDate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code engram add}: remembers a user message (and optionally the assistant's reply). */
@Command(
    name = "add",
    description = "Remember a user message (and optionally the assistant's reply).")
final class AddCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Parameters(index = "0", paramLabel = "TEXT", description = "What the user said.")
  String text;

  @Option(
      names = "--assistant",
      paramLabel = "TEXT",
      description = "The assistant's reply, added after TEXT.")
  String assistant;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The user's name (speaker), stored as actor_id.")
  String name;

  @Option(
      names = "--timestamp",
      paramLabel = "TIME",
      converter = Converters.InstantConverter.class,
      description =
          "When the conversation took place (ISO-8601, UTC if no offset), e.g. 2024-05-01T10:00:00Z "
              + "(default: now, when the add runs).")
  Instant timestamp;

  @Option(
      names = "--metadata",
      paramLabel = "JSON",
      description = "A JSON object stored on the new memories.")
  String metadata;

  @Option(
      names = "--no-infer",
      negatable = false,
      description = "Store the messages verbatim instead of extracting facts.")
  boolean noInfer;

  @Option(
      names = "--expires",
      paramLabel = "DATE",
      converter = Converters.DateConverter.class,
      description = "First day (ISO-8601) on which the new memories are expired.")
  LocalDate expires;

  @Override
  protected int run() {
    AddRequest.Builder b =
        AddRequest.builder(scope.scope())
            .message(new Message(Role.USER, text, name, null, null))
            .infer(!noInfer)
            .timestamp(timestamp)
            .expiration(expires);
    if (assistant != null) {
      b.assistant(assistant);
    }
    if (metadata != null) {
      b.metadata(JsonInput.metadata("metadata", metadata));
    }
    AddRequest request = b.build();
    AddResult result;
    try (Memory memory = openMemory(true)) {
      result = memory.add(request);
    }
    if (json()) {
      printJson(MemoryJson.addResult(result));
    } else if (result.events().isEmpty()) {
      out().println("nothing to remember");
    } else {
      for (MemoryEvent e : result.events()) {
        out().println(Text.event(e));
      }
    }
    return EXIT_OK;
  }
}
