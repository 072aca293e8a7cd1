package dev.engram.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.EventType;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.Scope;
import dev.engram.Tenants;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code engram import FILE}: bulk-adds messages from JSON Lines or a LoCoMo file, or imports
 * memories from an Engram export ({@code engram export}) or a mem0 export, with a progress bar.
 */
@Command(
    name = "import",
    description =
        "Import messages (JSON Lines, one message per line, or a LoCoMo file) or"
            + " memories (an Engram export, or a mem0 export: {\"results\": [...]}, a JSON array or JSON Lines of mem0"
            + " memories).")
final class ImportCommand extends BaseCommand {
  /** A field of one message of an add request, as the engine names it. */
  private static final Pattern MESSAGE_FIELD = Pattern.compile("messages\\[(\\d+)\\]\\.(.*)");

  /** The input formats. */
  enum Format {
    JSONL("jsonl"),
    LOCOMO("locomo"),
    ENGRAM_JSONL("engram-jsonl"),
    MEM0("mem0");

    final String wireName;

    Format(String wireName) {
      this.wireName = wireName;
    }

    /** True for the formats of memory records (not messages). */
    boolean holdsRecords() {
      return this == ENGRAM_JSONL || this == MEM0;
    }
  }

  @Mixin ScopeOptions scope;

  @Parameters(index = "0", paramLabel = "FILE", description = "The file to import.")
  Path file;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = FormatConverter.class,
      description =
          "jsonl, locomo, engram-jsonl or mem0 (default: detected from the content, else from the file"
              + " name: .jsonl/.ndjson = jsonl, .json = locomo). For mem0, --user-id/--agent-id/--run-id give the scope"
              + " of memories that have none.")
  Format format;

  @Option(
      names = "--tenant",
      paramLabel = "TENANT",
      description = "The tenant to import into (default: default).")
  String tenant;

  @Option(
      names = "--infer",
      description = "Messages only: extract facts instead of storing each message" + " verbatim.")
  boolean infer;

  @Option(
      names = "--sample",
      paramLabel = "ID",
      description = "LoCoMo only: import only the conversation with this sample_id (repeatable).")
  List<String> samples = new ArrayList<>();

  @Option(
      names = "--batch-size",
      paramLabel = "N",
      defaultValue = "100",
      description =
          "JSON Lines and exports: lines (memories) per transaction (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      names = "--on-invalid",
      paramLabel = "ACTION",
      converter = OnInvalidConverter.class,
      description =
          "JSON Lines of messages: what to do with an invalid line (malformed, or a message longer"
              + " than the limit, 1 MiB characters by default): stop (default) stops before anything"
              + " is written, naming the line; skip leaves it out, says which line and why on"
              + " stderr, and counts the skipped lines in the summary.")
  JsonlImport.OnInvalid onInvalid = JsonlImport.OnInvalid.STOP;

  @Override
  protected int run() {
    Format f = format != null ? format : ImportFormats.detect(checkReadable(file));
    if (onInvalid == JsonlImport.OnInvalid.SKIP && f != Format.JSONL) {
      throw new ValidationException(
          "on_invalid",
          "skip applies to JSON Lines of messages (one message a line); "
              + f.wireName
              + " imports stop at the first invalid entry");
    }
    if (f.holdsRecords()) {
      return importRecords(f);
    }
    if (batchSize < 1) {
      throw new ValidationException("batch_size", "must be 1 or more, got " + batchSize);
    }
    // Parsed before the store is opened: a malformed file opens nothing.
    JsonlImport.Lines parsed =
        f == Format.JSONL
            ? JsonlImport.parse(readLines(file), scope, infer, onInvalid, this::skipped)
            : null;
    ImportPlan locomo =
        f == Format.LOCOMO ? LocomoImport.plan(readJson(file), scope, infer, samples) : null;
    Map<EventType, Integer> events = new EnumMap<>(EventType.class);
    TreeSet<String> scopes = new TreeSet<>();
    ImportPlan plan;
    int skipped = 0;
    try (Memory root = openMemory(true)) {
      Memory memory = root.forTenant(tenantId());
      // Every request is checked against the memory's limits before the first one is written.
      if (parsed != null) {
        JsonlImport.Lines kept = JsonlImport.check(parsed, memory::check, onInvalid, this::skipped);
        skipped = kept.skipped();
        plan = JsonlImport.plan(kept, batchSize, parsed.lines().size() + parsed.skipped());
      } else {
        plan = locomo;
        checkLocomo(plan, memory);
      }
      try (Progress progress = Progress.start("import", plan.messageCount(), "msg", err())) {
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
    }
    summary(plan, events, scopes, skipped);
    return EXIT_OK;
  }

  /** Reports a skipped line on stderr. */
  private void skipped(ValidationException e) {
    err().println("engram import: skipped " + e.getMessage());
  }

  /**
   * Checks every session of a LoCoMo file against the memory before anything is written; the first
   * that fails stops the import, naming the turn (its {@code dia_id}) and the scope.
   */
  private static void checkLocomo(ImportPlan plan, Memory memory) {
    for (List<AddRequest> batch : plan.batches()) {
      for (AddRequest r : batch) {
        try {
          memory.check(r);
        } catch (ValidationException e) {
          String where = r.scope().key();
          Matcher m = MESSAGE_FIELD.matcher(e.field());
          if (m.matches()) {
            String turn = r.messages().get(Integer.parseInt(m.group(1))).sourceId();
            where = where + " turn " + (turn == null ? m.group(1) : turn) + "." + m.group(2);
          }
          throw new ValidationException(where, e.reason() + " (nothing was imported)");
        }
      }
    }
  }

  private String tenantId() {
    return tenant == null ? Tenants.DEFAULT : Tenants.check(tenant);
  }

  /** Imports an Engram or mem0 export: checks every record first, then writes them in batches. */
  private int importRecords(Format f) {
    if (infer) {
      throw new ValidationException(
          "infer",
          "applies to messages (jsonl, locomo); "
              + f.wireName
              + " files hold memories, which are imported as they are");
    }
    if (batchSize < 1) {
      throw new ValidationException("batch_size", "must be 1 or more, got " + batchSize);
    }
    Optional<Scope> defaultScope = scope.optionalScope();
    if (f == Format.ENGRAM_JSONL && defaultScope.isPresent()) {
      throw new ValidationException(
          "user_id",
          "--user-id/--agent-id/--run-id give the scope of mem0 memories"
              + " without one; every memory of an Engram export has its scope");
    }
    String tenantId = tenantId();
    RecordImport records =
        new RecordImport(
            file,
            f == Format.MEM0
                ? MemoryRecordReader.Format.MEM0
                : MemoryRecordReader.Format.ENGRAM_JSONL,
            defaultScope);
    long count = records.check();
    RecordImport.Counts result;
    try (Memory root = openMemory(true);
        Progress progress = Progress.start("import", count, "mem", err())) {
      result = records.write(root.forTenant(tenantId), batchSize, progress);
    }
    if (json()) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      o.put("format", f.wireName);
      o.put("tenant", tenantId);
      o.put("memories", count);
      o.put("imported", result.imported());
      o.put("skipped", result.skipped());
      printJson(o);
    } else {
      out()
          .printf(
              Locale.ROOT,
              "imported %d of %d memories (%s) into tenant '%s'; %d skipped (the tenant already"
                  + " has their ids)%n",
              result.imported(),
              count,
              f.wireName,
              tenantId,
              result.skipped());
    }
    return EXIT_OK;
  }

  private void summary(
      ImportPlan plan, Map<EventType, Integer> events, SortedSet<String> scopes, int skipped) {
    if (json()) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      o.put("messages", plan.messageCount());
      o.put("skipped_lines", skipped);
      o.put("added", events.getOrDefault(EventType.ADD, 0));
      o.put("updated", events.getOrDefault(EventType.UPDATE, 0));
      o.put("deleted", events.getOrDefault(EventType.DELETE, 0));
      o.put("unchanged", events.getOrDefault(EventType.NOOP, 0));
      scopes.forEach(o.putArray("scopes")::add);
      printJson(o);
      return;
    }
    out()
        .printf(
            Locale.ROOT,
            "imported %d messages (%s) into %d %s: %d added, %d updated, %d deleted,"
                + " %d unchanged%n",
            plan.messageCount(),
            plan.units(),
            scopes.size(),
            scopes.size() == 1 ? "scope" : "scopes",
            events.getOrDefault(EventType.ADD, 0),
            events.getOrDefault(EventType.UPDATE, 0),
            events.getOrDefault(EventType.DELETE, 0),
            events.getOrDefault(EventType.NOOP, 0));
    if (skipped > 0) {
      out()
          .printf(
              Locale.ROOT,
              "skipped %d invalid %s (named on stderr)%n",
              skipped,
              skipped == 1 ? "line" : "lines");
    }
    scopes.forEach(s -> out().println("  " + s));
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
      throw new ValidationException(
          "file", "malformed JSON in '" + file + "': " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ValidationException("file", "cannot read '" + file + "': " + e.getMessage());
    }
  }

  static Path checkReadable(Path file) {
    if (!Files.exists(file)) {
      throw new ValidationException("file", "'" + file + "' does not exist");
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new ValidationException("file", "'" + file + "' is not a readable file");
    }
    return file;
  }

  /** {@code stop} or {@code skip}, case-insensitive. */
  public static final class OnInvalidConverter implements ITypeConverter<JsonlImport.OnInvalid> {
    @Override
    public JsonlImport.OnInvalid convert(String value) {
      for (JsonlImport.OnInvalid o : JsonlImport.OnInvalid.values()) {
        if (o.name().equalsIgnoreCase(value.trim())) {
          return o;
        }
      }
      throw new TypeConversionException("unknown action '" + value + "' (expected stop or skip)");
    }
  }

  /** Case-insensitive {@link Format} names. */
  public static final class FormatConverter implements ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      for (Format f : Format.values()) {
        if (f.wireName.equalsIgnoreCase(value.trim())) {
          return f;
        }
      }
      throw new TypeConversionException(
          "unknown format '" + value + "' (expected jsonl, locomo, engram-jsonl or" + " mem0)");
    }
  }
}
