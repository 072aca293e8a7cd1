package dev.engram.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.EventType;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code engram import FILE}: bulk-adds messages from JSON Lines or a LoCoMo file, with a progress bar. */
@Command(name = "import", description = "Import messages from JSON Lines (one message per line) or a LoCoMo file.")
final class ImportCommand extends BaseCommand {
  /** The input formats. */
  enum Format { JSONL, LOCOMO }

  @Mixin
  ScopeOptions scope;

  @Parameters(index = "0", paramLabel = "FILE", description = "The file to import.")
  Path file;

  @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
      description = "jsonl or locomo (default: from the file name: .jsonl/.ndjson = jsonl, .json = locomo).")
  Format format;

  @Option(names = "--infer", description = "Extract facts instead of storing each message verbatim.")
  boolean infer;

  @Option(names = "--sample", paramLabel = "ID",
      description = "LoCoMo only: import only the conversation with this sample_id (repeatable).")
  List<String> samples = new ArrayList<>();

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "100",
      description = "JSON Lines only: lines per transaction (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Override
  protected int run() {
    Format f = format != null ? format : guess(file);
    ImportPlan plan = f == Format.JSONL
        ? JsonlImport.plan(readLines(file), scope, infer, batchSize)
        : LocomoImport.plan(readJson(file), scope, infer, samples);
    Map<EventType, Integer> events = new EnumMap<>(EventType.class);
    TreeSet<String> scopes = new TreeSet<>();
    try (Memory memory = openMemory(true);
         Progress progress = Progress.start("import", plan.messageCount(), "msg", err())) {
      for (List<AddRequest> batch : plan.batches()) {
        List<AddResult> results = memory.addBatch(batch);
        batch.forEach(r -> scopes.add(r.scope().key()));
        for (AddResult r : results) {
          for (MemoryEvent e : r.events()) {
            events.merge(e.event(), 1, Integer::sum);
          }
        }
        progress.stepBy(ImportPlan.messages(batch));
      }
    }
    summary(plan, events, scopes);
    return EXIT_OK;
  }

  private void summary(ImportPlan plan, Map<EventType, Integer> events, TreeSet<String> scopes) {
    if (json()) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      o.put("messages", plan.messageCount());
      o.put("added", events.getOrDefault(EventType.ADD, 0));
      o.put("updated", events.getOrDefault(EventType.UPDATE, 0));
      o.put("deleted", events.getOrDefault(EventType.DELETE, 0));
      o.put("unchanged", events.getOrDefault(EventType.NOOP, 0));
      scopes.forEach(o.putArray("scopes")::add);
      printJson(o);
      return;
    }
    out().printf(Locale.ROOT, "imported %d messages (%s) into %d %s: %d added, %d updated, %d deleted,"
            + " %d unchanged%n", plan.messageCount(), plan.units(), scopes.size(),
        scopes.size() == 1 ? "scope" : "scopes", events.getOrDefault(EventType.ADD, 0),
        events.getOrDefault(EventType.UPDATE, 0), events.getOrDefault(EventType.DELETE, 0),
        events.getOrDefault(EventType.NOOP, 0));
    scopes.forEach(s -> out().println("  " + s));
  }

  private static Format guess(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return Format.JSONL;
    }
    if (name.endsWith(".json")) {
      return Format.LOCOMO;
    }
    throw new ValidationException("format", "cannot tell the format of '" + file + "'; pass --format jsonl or"
        + " --format locomo");
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(checkReadable(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ValidationException("file", "cannot read '" + file + "': " + e.getMessage());
    }
  }

  private static JsonNode readJson(Path file) {
    try {
      return MemoryJson.mapper().readTree(checkReadable(file).toFile());
    } catch (JsonProcessingException e) {
      throw new ValidationException("file", "malformed JSON in '" + file + "': " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ValidationException("file", "cannot read '" + file + "': " + e.getMessage());
    }
  }

  private static Path checkReadable(Path file) {
    if (!Files.exists(file)) {
      throw new ValidationException("file", "'" + file + "' does not exist");
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new ValidationException("file", "'" + file + "' is not a readable file");
    }
    return file;
  }

  /** Case-insensitive {@link Format} names. */
  public static final class FormatConverter implements ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      for (Format f : Format.values()) {
        if (f.name().equalsIgnoreCase(value.trim())) {
          return f;
        }
      }
      throw new TypeConversionException("unknown format '" + value + "' (expected jsonl or locomo)");
    }
  }
}
