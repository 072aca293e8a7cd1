package dev.engram.engine;

import dev.engram.ExportRequest;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.ImportResult;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.ValidationException;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.StoredMemory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Export and import of a tenant's memories with their history ({@link
 * dev.engram.Memory#exportRecords}, {@link dev.engram.Memory#importRecords}). Exports page through
 * {@link dev.engram.spi.MemoryStore#memoryIds} in id order; imports validate, embed the live
 * records' texts in one batch outside the write lock, and hand the batch to {@link Engine#restore},
 * one store transaction. Stateless apart from the engine; thread-safe.
 */
final class MemoryTransfer {
  private final Engine engine;

  MemoryTransfer(Engine engine) {
    this.engine = engine;
  }

  /** See {@link dev.engram.Memory#exportRecords}. */
  Stream<MemoryRecord> export(String tenant, ExportRequest request) {
    Objects.requireNonNull(request, "request");
    engine.ensureOpen();
    return StreamSupport.stream(new Pages(tenant, request), false);
  }

  /** See {@link dev.engram.Memory#importRecords}. */
  ImportResult importRecords(String tenant, List<MemoryRecord> records) {
    Objects.requireNonNull(records, "records");
    engine.ensureOpen();
    if (records.isEmpty()) {
      return new ImportResult(0, List.of());
    }
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      check(
          "records[" + i + "]", Objects.requireNonNull(records.get(i), "records[" + i + "]"), ids);
    }
    Set<String> existing =
        engine.existingIds(tenant, records.stream().map(MemoryRecord::id).toList());
    List<MemoryRecord> fresh = records.stream().filter(r -> !existing.contains(r.id())).toList();
    List<MemoryItem> live = fresh.stream().flatMap(r -> r.memory().stream()).toList();
    List<String> texts = new ArrayList<>(live.stream().map(EmbeddingTexts::of).toList());
    // With context embeddings on, the records' contexts are embedded in the same call, behind the
    // memory texts.
    ContextVectors contexts = new ContextVectors(texts.size());
    if (engine.config.contextEmbeddings()) {
      fresh.stream()
          .filter(r -> r.memory().isPresent() && !r.context().isEmpty())
          .forEach(
              r -> contexts.context(r.memory().get().id(), EmbeddingTexts.context(r.context())));
      texts.addAll(contexts.texts());
    }
    List<float[]> vectors =
        Vectors.embedDocuments(engine.config.embedder(), texts, "an imported memory or context");
    Map<String, float[]> vectorById = new HashMap<>();
    for (int i = 0; i < live.size(); i++) {
      vectorById.put(live.get(i).id(), vectors.get(i));
    }
    List<RestoredMemory> restored = new ArrayList<>(fresh.size());
    for (MemoryRecord r : fresh) {
      Optional<StoredMemory> current =
          r.memory()
              .map(
                  m ->
                      new StoredMemory(
                          tenant,
                          m,
                          vectorById.get(m.id()),
                          r.context(),
                          contexts
                              .of(m.id(), vectors, vectorById.get(m.id()))
                              .orElse(new float[0])));
      restored.add(new RestoredMemory(r.id(), current, r.history()));
    }
    List<String> written = restored.isEmpty() ? List.of() : engine.restore(tenant, restored);
    Set<String> writtenIds = new HashSet<>(written);
    List<String> skipped =
        records.stream().map(MemoryRecord::id).filter(id -> !writtenIds.contains(id)).toList();
    return new ImportResult(written.size(), skipped);
  }

  /** Checks one record as an add would check its memory; the messages name it by {@code path}. */
  private void check(String path, MemoryRecord r, Set<String> ids) {
    if (r.id().length() > 64 || !r.id().equals(r.id().strip())) {
      throw new ValidationException(
          path + ".id",
          "'"
              + r.id()
              + "' is not a valid memory id (at most 64"
              + " characters, no surrounding spaces)");
    }
    if (!ids.add(r.id())) {
      throw new ValidationException(path + ".id", "'" + r.id() + "' appears twice in the batch");
    }
    if (r.memory().isEmpty()) {
      return;
    }
    MemoryItem m = r.memory().get();
    RequestChecks.checkText(path + ".memory", m.text(), engine.config.maxTextLength());
    if (!m.hash().equals(Hashes.md5(m.text()))) {
      throw new ValidationException(
          path + ".hash", "'" + m.hash() + "' is not the md5 of the memory text");
    }
    try {
      m.scope();
      RequestChecks.checkMetadata(m.metadata().keySet());
    } catch (ValidationException e) {
      throw e.within(path);
    }
  }

  /** Reads an export one page of ids at a time, lazily. */
  private final class Pages extends Spliterators.AbstractSpliterator<MemoryRecord> {
    private final String tenant;
    private final ExportRequest request;
    private final ArrayDeque<MemoryRecord> buffer = new ArrayDeque<>();
    private String after = "";
    private boolean exhausted;

    Pages(String tenant, ExportRequest request) {
      super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL);
      this.tenant = tenant;
      this.request = request;
    }

    @Override
    public boolean tryAdvance(Consumer<? super MemoryRecord> action) {
      while (buffer.isEmpty() && !exhausted) {
        fill();
      }
      MemoryRecord next = buffer.poll();
      if (next == null) {
        return false;
      }
      action.accept(next);
      return true;
    }

    private void fill() {
      engine.ensureOpen();
      List<String> ids = engine.store.memoryIds(tenant, request.scope(), after, request.pageSize());
      if (ids.size() < request.pageSize()) {
        exhausted = true;
      }
      if (ids.isEmpty()) {
        return;
      }
      after = ids.get(ids.size() - 1);
      Map<String, StoredMemory> stored = new HashMap<>();
      engine.store.getAll(tenant, ids).forEach(m -> stored.put(m.id(), m));
      for (String id : ids) {
        List<HistoryEntry> history = engine.store.history(tenant, id);
        StoredMemory current = stored.get(id);
        MemoryItem item = current == null ? null : current.item();
        if (history.isEmpty()) {
          continue; // deleted by a reset while this page was read
        }
        if (item == null && request.scope().isPresent()) {
          continue; // deleted while this page was read; a scope export holds existing memories only
        }
        buffer.add(
            new MemoryRecord(
                id, Optional.ofNullable(item), history, current == null ? "" : current.context()));
      }
    }
  }
}
