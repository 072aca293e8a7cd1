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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Imports memory records from an export file: an Engram export or a mem0 export ({@link
 * MemoryRecordReader}). The file is read twice, never whole: a first pass checks every record (and
 * that no id repeats), so a bad line is reported before anything is written; the second pass
 * imports batches, each one transaction ({@link Memory#importRecords}). Records whose id the tenant
 * already has are skipped, so an interrupted import can be run again.
 */
final class RecordImport {
  private static final Pattern RECORD_INDEX = Pattern.compile("^records\\[(\\d+)]\\.?(.*)$");

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
   * @throws ValidationException naming the line (or array element) of the first bad record or
   *     repeated id
   */
  long check() {
    Set<String> ids = new HashSet<>();
    long n = 0;
    try (MemoryRecordReader reader = open()) {
      while (reader.hasNext()) {
        MemoryRecord r = reader.next();
        if (!ids.add(r.id())) {
          throw new ValidationException(
              reader.position() + ".id", "'" + r.id() + "' appears a second time in the" + " file");
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
   * Imports the records in batches of {@code batchSize}; {@code progress} advances by each batch.
   */
  Counts write(Memory memory, int batchSize, Progress progress) {
    long imported = 0;
    long skipped = 0;
    List<MemoryRecord> batch = new ArrayList<>(batchSize);
    List<String> positions = new ArrayList<>(batchSize);
    try (MemoryRecordReader reader = open()) {
      while (reader.hasNext()) {
        batch.add(reader.next());
        positions.add(reader.position());
        if (batch.size() == batchSize || !reader.hasNext()) {
          ImportResult result = importBatch(memory, batch, positions);
          imported += result.imported();
          skipped += result.skipped();
          progress.stepBy(batch.size());
          batch.clear();
          positions.clear();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Counts(imported, skipped);
  }

  /** One batch; an error about {@code records[i]} is reported at the record's line. */
  private static ImportResult importBatch(
      Memory memory, List<MemoryRecord> batch, List<String> positions) {
    try {
      return memory.importRecords(batch);
    } catch (ValidationException e) {
      Matcher m = RECORD_INDEX.matcher(e.field());
      if (!m.matches()) {
        throw e;
      }
      String at = positions.get(Integer.parseInt(m.group(1)));
      String field = m.group(2).isEmpty() ? at : at + "." + m.group(2);
      ValidationException located =
          new ValidationException(
              field,
              e.reason()
                  + " (nothing of "
                  + positions.get(0)
                  + " to "
                  + positions.get(positions.size() - 1)
                  + " was written)");
      located.initCause(e);
      throw located;
    }
  }

  private MemoryRecordReader open() {
    try {
      return MemoryRecordReader.open(
          Files.newBufferedReader(file, StandardCharsets.UTF_8), Optional.of(format), defaultScope);
    } catch (IOException e) {
      throw new ValidationException("file", "cannot read '" + file + "': " + e.getMessage());
    }
  }
}
