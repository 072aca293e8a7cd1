package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ExportRequest;
import dev.engram.Memory;
import dev.engram.MemoryRecord;
import dev.engram.Scope;
import dev.engram.Tenants;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordJson;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code engram export}: writes a tenant's memories (or one scope's) with metadata, provenance and
 * history as JSON Lines in the Engram export format ({@link MemoryRecordJson}); {@code engram
 * import} reads it back.
 */
@Command(
    name = "export",
    description =
        "Export memories with their metadata, provenance and history as JSON Lines"
            + " (the whole tenant, or the scope given by --user-id/--agent-id/--run-id).")
final class ExportCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Option(
      names = "--tenant",
      paramLabel = "TENANT",
      description = "The tenant to export (default: default).")
  String tenant;

  @Option(
      names = {"--output", "-o"},
      paramLabel = "FILE",
      defaultValue = "-",
      description =
          "Where to write the export; - for stdout (default: ${DEFAULT-VALUE}). A file is written"
              + " completely or not at all.")
  String output;

  @Override
  protected int run() throws IOException {
    Optional<Scope> only = scope.optionalScope();
    String tenantId = tenant == null ? Tenants.DEFAULT : Tenants.check(tenant);
    long written;
    long deleted;
    try (Memory root = openMemory(false)) {
      Memory memory = root.forTenant(tenantId);
      ObjectNode header = MemoryRecordJson.header(tenantId, only, clock().instant());
      try (Stream<MemoryRecord> records = memory.exportRecords(ExportRequest.of(only));
          Progress progress = Progress.start("export", -1, "mem", err())) {
        long[] counts =
            "-".equals(output)
                ? write(out(), header, records.iterator(), progress)
                : writeFile(Path.of(output), header, records.iterator(), progress);
        written = counts[0];
        deleted = counts[1];
      }
    }
    String where = "-".equals(output) ? "stdout" : output;
    if (json() && !"-".equals(output)) {
      ObjectNode o = MemoryJson.mapper().createObjectNode();
      o.put("tenant", tenantId);
      o.put("memories", written);
      o.put("deleted", deleted);
      o.put("output", output);
      printJson(o);
    } else {
      err()
          .printf(
              Locale.ROOT,
              "exported %d %s (%d deleted, history only) of tenant '%s'%s to %s%n",
              written,
              written == 1 ? "memory" : "memories",
              deleted,
              tenantId,
              only.map(s -> ", scope " + s.key()).orElse(""),
              where);
    }
    return EXIT_OK;
  }

  /**
   * Writes to a temporary file beside {@code file} and moves it into place, so no half file is ever
   * left.
   */
  private static long[] writeFile(
      Path file, ObjectNode header, Iterator<MemoryRecord> records, Progress progress)
      throws IOException {
    Path absolute = file.toAbsolutePath();
    Files.createDirectories(absolute.getParent());
    Path tmp =
        Files.createTempFile(absolute.getParent(), absolute.getFileName().toString(), ".part");
    try {
      long[] counts;
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        counts = write(w, header, records, progress);
      }
      Files.move(
          tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return counts;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Writes the header and one line per record; returns {records, deleted records}. */
  private static long[] write(
      Writer w, ObjectNode header, Iterator<MemoryRecord> records, Progress progress)
      throws IOException {
    w.write(MemoryJson.write(header));
    w.write('\n');
    long n = 0;
    long deleted = 0;
    while (records.hasNext()) {
      MemoryRecord r = records.next();
      w.write(MemoryRecordJson.line(r));
      w.write('\n');
      n++;
      deleted += r.isDeleted() ? 1 : 0;
      progress.stepBy(1);
    }
    w.flush();
    return new long[] {n, deleted};
  }
}
