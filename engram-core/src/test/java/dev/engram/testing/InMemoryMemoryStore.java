package dev.engram.testing;

import dev.engram.DimensionMismatchException;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.filter.FilterEvaluator;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The reference {@link MemoryStore}: plain Java collections under one monitor, with {@link
 * FilterEvaluator} as the filter semantics. Obviously correct rather than fast; every backend's
 * store is tested against the same contract ({@link MemoryStoreContract}). {@link #apply} works on
 * copies and swaps them in at the end, so a failing change set leaves nothing behind.
 */
public final class InMemoryMemoryStore implements MemoryStore {
  /** Newest first, then id: the order of {@link #list}. */
  public static final Comparator<MemoryItem> NEWEST_FIRST =
      Comparator.comparing(MemoryItem::createdAt).reversed().thenComparing(MemoryItem::id);

  private final Clock clock;
  private Map<String, StoredMemory> memories = new LinkedHashMap<>();
  private List<TenantHistory> history = new ArrayList<>();
  private Map<String, List<Message>> windows = new HashMap<>();
  private final Map<String, String> summaries = new HashMap<>();
  private EmbeddingSpec spec;
  private long lastSeq;
  private long generation;
  private boolean closed;

  private record TenantHistory(String tenant, HistoryEntry entry) {}

  /** A store whose deletion history rows are stamped by {@code clock}. */
  public InMemoryMemoryStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static String key(String tenant, String id) {
    return tenant + '\u0000' + id;
  }

  private static String scopeKey(String tenant, Scope scope) {
    return tenant + '\u0000' + scope.key();
  }

  @Override
  public synchronized Optional<EmbeddingSpec> embeddingSpec() {
    return Optional.ofNullable(spec);
  }

  @Override
  public synchronized void recordEmbeddingSpec(EmbeddingSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  @Override
  public synchronized long apply(ChangeSet changes) {
    ensureOpen();
    Map<String, StoredMemory> next = new LinkedHashMap<>(memories);
    List<TenantHistory> nextHistory = new ArrayList<>(history);
    long seq = lastSeq;
    for (MemoryChange c : changes.changes()) {
      StoredMemory m = c.memory();
      if (spec != null && m.embeddingView().length != spec.dimension()) {
        throw new DimensionMismatchException(
            "memory "
                + m.id()
                + " has a "
                + m.embeddingView().length
                + "-dimensional embedding; the store holds "
                + spec.dimension()
                + "-dimensional ones");
      }
      String k = key(m.tenant(), m.id());
      Instant at;
      switch (c.event()) {
        case ADD -> {
          if (next.containsKey(k)) {
            throw new StorageException(
                "ADD of memory "
                    + m.id()
                    + ": a memory with this id already exists in"
                    + " tenant '"
                    + m.tenant()
                    + "'");
          }
          next.put(k, m);
          at = m.item().createdAt();
        }
        case UPDATE -> {
          if (!next.containsKey(k)) {
            throw new MemoryNotFoundException(m.id());
          }
          next.put(k, m);
          at = m.item().updatedAt();
        }
        case DELETE -> {
          if (next.remove(k) == null) {
            throw new MemoryNotFoundException(m.id());
          }
          at = c.at();
        }
        default -> throw new IllegalArgumentException("a store cannot apply " + c.event());
      }
      seq++;
      nextHistory.add(
          new TenantHistory(
              m.tenant(),
              new HistoryEntry(
                  seq,
                  m.id(),
                  c.event(),
                  c.previousText(),
                  c.event() == EventType.DELETE ? null : m.item().text(),
                  c.actorId(),
                  c.role(),
                  at,
                  c.pipeline())));
    }
    Map<String, List<Message>> nextWindows = new HashMap<>(windows);
    for (ChangeSet.WindowAppend w : changes.windows()) {
      List<Message> window =
          new ArrayList<>(
              nextWindows.getOrDefault(scopeKey(changes.tenant(), w.scope()), List.of()));
      window.addAll(w.messages());
      nextWindows.put(
          scopeKey(changes.tenant(), w.scope()),
          List.copyOf(window.subList(Math.max(0, window.size() - w.keep()), window.size())));
    }
    memories = next;
    history = nextHistory;
    windows = nextWindows;
    lastSeq = seq;
    return seq;
  }

  @Override
  public synchronized long restore(String tenant, List<dev.engram.spi.RestoredMemory> restored) {
    ensureOpen();
    Map<String, StoredMemory> next = new LinkedHashMap<>(memories);
    List<TenantHistory> nextHistory = new ArrayList<>(history);
    long seq = lastSeq;
    for (dev.engram.spi.RestoredMemory r : restored) {
      String k = key(tenant, r.id());
      if (next.containsKey(k)) {
        throw new StorageException(
            "restore of memory "
                + r.id()
                + ": a memory with this id already exists in"
                + " tenant '"
                + tenant
                + "'");
      }
      for (HistoryEntry h : r.history()) {
        seq++;
        nextHistory.add(
            new TenantHistory(
                tenant,
                new HistoryEntry(
                    seq,
                    r.id(),
                    h.event(),
                    h.oldText(),
                    h.newText(),
                    h.actorId(),
                    h.role(),
                    h.at(),
                    h.pipeline())));
      }
      if (r.current().isPresent()) {
        StoredMemory m = r.current().get();
        if (spec != null && m.embeddingView().length != spec.dimension()) {
          throw new DimensionMismatchException(
              "memory "
                  + m.id()
                  + " has a "
                  + m.embeddingView().length
                  + "-dimensional embedding; the store holds "
                  + spec.dimension()
                  + "-dimensional ones");
        }
        next.put(k, m);
      }
    }
    memories = next;
    history = nextHistory;
    lastSeq = seq;
    return seq;
  }

  @Override
  public synchronized List<String> memoryIds(
      String tenant, Optional<Scope> scope, String afterId, int limit) {
    ensureOpen();
    java.util.TreeSet<String> ids = new java.util.TreeSet<>();
    if (scope.isPresent()) {
      items(tenant).filter(m -> inScope(scope.get(), m)).forEach(m -> ids.add(m.id()));
    } else {
      history.stream()
          .filter(h -> h.tenant().equals(tenant))
          .forEach(h -> ids.add(h.entry().memoryId()));
    }
    return ids.tailSet(afterId, false).stream().limit(limit).toList();
  }

  @Override
  public synchronized Optional<StoredMemory> get(String tenant, String id) {
    ensureOpen();
    return Optional.ofNullable(memories.get(key(tenant, id)));
  }

  @Override
  public synchronized List<StoredMemory> getAll(String tenant, Collection<String> ids) {
    ensureOpen();
    List<StoredMemory> out = new ArrayList<>();
    for (String id : new java.util.LinkedHashSet<>(ids)) {
      StoredMemory m = memories.get(key(tenant, id));
      if (m != null) {
        out.add(m);
      }
    }
    return out;
  }

  @Override
  public synchronized List<MemoryItem> findByHash(String tenant, Scope scope, String hash) {
    ensureOpen();
    return items(tenant)
        .filter(m -> inScope(scope, m) && m.hash().equals(hash))
        .sorted(NEWEST_FIRST)
        .toList();
  }

  @Override
  public synchronized Page<MemoryItem> list(String tenant, ListRequest request, LocalDate today) {
    ensureOpen();
    List<MemoryItem> all =
        items(tenant)
            .filter(m -> inScope(request.scope(), m))
            .filter(m -> request.includeExpired() || !m.isExpired(today))
            .filter(m -> FilterEvaluator.matches(request.filter(), m))
            .sorted(NEWEST_FIRST)
            .toList();
    int from = Math.min(request.offset(), all.size());
    int to = Math.min(all.size(), from + request.limit());
    return new Page<>(List.copyOf(all.subList(from, to)), all.size(), request.offset());
  }

  @Override
  public synchronized List<String> expiredIds(String tenant, LocalDate today, int limit) {
    ensureOpen();
    return items(tenant)
        .filter(m -> m.isExpired(today))
        .sorted(Comparator.comparing(MemoryItem::expirationDate).thenComparing(MemoryItem::id))
        .limit(limit)
        .map(MemoryItem::id)
        .toList();
  }

  @Override
  public synchronized List<HistoryEntry> history(String tenant, String memoryId) {
    ensureOpen();
    return history.stream()
        .filter(h -> h.tenant().equals(tenant) && h.entry().memoryId().equals(memoryId))
        .map(TenantHistory::entry)
        .toList();
  }

  @Override
  public synchronized List<Message> recentMessages(String tenant, Scope scope, int limit) {
    ensureOpen();
    List<Message> window = windows.getOrDefault(scopeKey(tenant, scope), List.of());
    return List.copyOf(window.subList(Math.max(0, window.size() - limit), window.size()));
  }

  @Override
  public synchronized Optional<String> summary(String tenant, Scope scope) {
    ensureOpen();
    return Optional.ofNullable(summaries.get(scopeKey(tenant, scope)));
  }

  @Override
  public synchronized void saveSummary(String tenant, Scope scope, String summary) {
    ensureOpen();
    summaries.put(scopeKey(tenant, scope), Objects.requireNonNull(summary, "summary"));
  }

  @Override
  public synchronized long lastSeq() {
    ensureOpen();
    return lastSeq;
  }

  @Override
  public synchronized long generation() {
    ensureOpen();
    return generation;
  }

  /** Visits a snapshot taken under the monitor, outside it, so the visitor may call this store. */
  @Override
  public void changesSince(long seq, Consumer<Change> visitor) {
    TreeMap<Long, Change> latest = new TreeMap<>();
    synchronized (this) {
      ensureOpen();
      Map<String, Long> last = new HashMap<>();
      Map<String, String[]> names = new HashMap<>();
      for (TenantHistory h : history) {
        if (h.entry().seq() > seq) {
          String k = key(h.tenant(), h.entry().memoryId());
          last.put(k, h.entry().seq());
          names.put(k, new String[] {h.tenant(), h.entry().memoryId()});
        }
      }
      last.forEach(
          (k, s) ->
              latest.put(s, new Change(s, names.get(k)[0], names.get(k)[1], memories.get(k))));
    }
    latest.values().forEach(visitor);
  }

  @Override
  public void forEach(Consumer<StoredMemory> visitor) {
    List<StoredMemory> all;
    synchronized (this) {
      ensureOpen();
      all = List.copyOf(memories.values());
    }
    all.forEach(visitor);
  }

  @Override
  public synchronized void reset(String tenant) {
    ensureOpen();
    memories.values().removeIf(m -> m.tenant().equals(tenant));
    history.removeIf(h -> h.tenant().equals(tenant));
    String prefix = tenant + '\u0000';
    windows.keySet().removeIf(k -> k.startsWith(prefix));
    summaries.keySet().removeIf(k -> k.startsWith(prefix));
    generation++;
  }

  @Override
  public synchronized long count() {
    ensureOpen();
    return memories.size();
  }

  /** Marks this handle closed; the data stays for the next {@link InMemoryStorage#open}. */
  @Override
  public synchronized void close() {
    closed = true;
  }

  synchronized void reopen() {
    closed = false;
  }

  private void ensureOpen() {
    if (closed) {
      throw new StorageException("the in-memory store is closed");
    }
  }

  private java.util.stream.Stream<MemoryItem> items(String tenant) {
    return memories.values().stream()
        .filter(m -> m.tenant().equals(tenant))
        .map(StoredMemory::item);
  }

  private static boolean inScope(Scope scope, MemoryItem m) {
    return scope.contains(m.userId(), m.agentId(), m.runId());
  }
}
