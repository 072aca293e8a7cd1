package dev.engram.cli;

import dev.engram.ImportResult;
import dev.engram.Memory;
import dev.engram.MemoryRecord;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.json.MemoryRecordReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Imports memory records from an export file: an Engram export or a mem0 export ({@link MemoryRecordReader}).
 * The file is read twice, never whole: a first pass checks every record (and that no id repeats), so a bad line is
 * reported before anything is written; the second pass imports batches, each one transaction
 * ({@link Memory#importRecords}). Records whose id the tenant already has are skipped, so an interrupted import
 * can be run again.
 */
final class RecordImport {
  private static final Pattern RECORD_INDEX = Pattern.compile("^records\\[(\\d+)]\\.?(.*)$");
  /** Batches being imported at once: one written while the next is embedded. */
  private static final int IN_FLIGHT = 2;

  private final Path file;
  private final MemoryRecordReader.Format format;
  private final Optional<Scope> defaultScope;

  RecordImport(Path file, MemoryRecordReader.Format format, Optional<Scope> defaultScope) {
    this.file = file;
    this.format = format;
    this.defaultScope = defaultScope;
  }

  /**
   * Reads every record once and returns how many there are.
   *
   * @throws ValidationException naming the line (or array element) of the first bad record or repeated id
   */
  long check() {
    Set<String> ids = new HashSet<>();
    long n = 0;
    try (MemoryRecordReader reader = open()) {
      while (reader.hasNext()) {
        MemoryRecord r = reader.next();
        if (!ids.add(r.id())) {
          throw new ValidationException(reader.position() + ".id", "'" + r.id() + "' appears a second time in the"
              + " file");
        }
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (n == 0) {
      throw new ValidationException("file", "holds no memories");
    }
    return n;
  }

  /** How many records an import wrote and skipped. */
  record Counts(long imported, long skipped) {}

  /**
   * Imports the records in batches of {@code batchSize}, two batches in flight: while one is written, the next is
   * embedded (an import embeds its texts before it takes the store's write lock), so both cores work. Batches are
   * independent (distinct ids); {@code progress} advances as each finishes, in file order. After a failed batch no
   * other is started, the one in flight is waited for (it may have been written: running the import again skips
   * what was), and the first failure in file order is thrown.
   */
  Counts write(Memory memory, int batchSize, Progress progress) {
    long[] counts = new long[2];
    ArrayDeque<Future<ImportResult>> inFlight = new ArrayDeque<>();
    ExecutorService writers = Executors.newFixedThreadPool(IN_FLIGHT, runnable -> {
      Thread t = new Thread(runnable, "engram-import");
      t.setDaemon(true);
      return t;
    });
    try (MemoryRecordReader reader = open()) {
      List<MemoryRecord> batch = new ArrayList<>(batchSize);
      List<String> positions = new ArrayList<>(batchSize);
      while (reader.hasNext()) {
        batch.add(reader.next());
        positions.add(reader.position());
        if (batch.size() == batchSize || !reader.hasNext()) {
          if (inFlight.size() == IN_FLIGHT) {
            finish(inFlight, counts, progress);
          }
          List<MemoryRecord> records = List.copyOf(batch);
          List<String> at = List.copyOf(positions);
          inFlight.add(writers.submit(() -> importBatch(memory, records, at)));
          batch.clear();
          positions.clear();
        }
      }
      while (!inFlight.isEmpty()) {
        finish(inFlight, counts, progress);
      }
    } catch (IOException e) {
      throw drained(inFlight, new UncheckedIOException(e));
    } catch (RuntimeException e) {
      throw drained(inFlight, e);
    } catch (Error e) {
      throw drained(inFlight, e);
    } finally {
      writers.shutdown();
    }
    return new Counts(counts[0], counts[1]);
  }

  /**
   * Waits for the batches still in flight (the store must not close under them) and returns {@code failure}, with
   * their own failures suppressed in it.
   */
  private static <T extends Throwable> T drained(ArrayDeque<Future<ImportResult>> inFlight, T failure) {
    for (Future<ImportResult> s : inFlight) {
      try {
        await(s);
      } catch (RuntimeException | Error later) {
        failure.addSuppressed(later);
      }
    }
    inFlight.clear();
    return failure;
  }

  /** Waits for the oldest batch in flight and counts it; its failure is thrown as it was thrown. */
  private static void finish(ArrayDeque<Future<ImportResult>> inFlight, long[] counts, Progress progress) {
    ImportResult result = await(inFlight.poll());
    counts[0] += result.imported();
    counts[1] += result.skipped();
    progress.stepBy(result.imported() + result.skipped());
  }

  private static ImportResult await(Future<ImportResult> s) {
    try {
      return s.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new dev.engram.EngramException("import interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new dev.engram.EngramException("import failed: " + e.getCause(), e.getCause());
    }
  }

  /** One batch; an error about {@code records[i]} is reported at the record's line. */
  private static ImportResult importBatch(Memory memory, List<MemoryRecord> batch, List<String> positions) {
    try {
      return memory.importRecords(batch);
    } catch (ValidationException e) {
      Matcher m = RECORD_INDEX.matcher(e.field());
      if (!m.matches()) {
        throw e;
      }
      String at = positions.get(Integer.parseInt(m.group(1)));
      String field = m.group(2).isEmpty() ? at : at + "." + m.group(2);
      ValidationException located = new ValidationException(field, e.reason() + " (nothing of " + positions.get(0)
          + " to " + positions.get(positions.size() - 1) + " was written)");
      located.initCause(e);
      throw located;
    }
  }

  private MemoryRecordReader open() {
    try {
      return MemoryRecordReader.open(Files.newBufferedReader(file, StandardCharsets.UTF_8), Optional.of(format),
          defaultScope);
    } catch (IOException e) {
      throw new ValidationException("file", "cannot read '" + file + "': " + e.getMessage());
    }
  }
}
