package dev.engram.engine;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The records one search has read from the store, so that each is read at most once per search: the ranking steps
 * (the neighbours' anchors and the memories near them, the feedback's best hits) and the choice of hits read through
 * it, and a record an earlier step read is not read again. A record missing from the store (deleted between the
 * index read and the record read) is remembered as missing. One per search; not thread-safe.
 */
final class SearchRecords {
  private final MemoryStore store;
  private final String tenant;
  private final Map<String, Optional<StoredMemory>> read = new HashMap<>();

  SearchRecords(MemoryStore store, String tenant) {
    this.store = store;
    this.tenant = tenant;
  }

  /**
   * The records of {@code ids} that exist, in the order of {@code ids} (each once); those not read yet in this
   * search are read in one {@link MemoryStore#getAll} call.
   */
  List<StoredMemory> get(List<String> ids) {
    Set<String> missing = new LinkedHashSet<>();
    for (String id : ids) {
      if (!read.containsKey(id)) {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      for (StoredMemory m : store.getAll(tenant, missing)) {
        read.put(m.id(), Optional.of(m));
      }
      for (String id : missing) {
        read.putIfAbsent(id, Optional.empty());
      }
    }
    List<StoredMemory> out = new ArrayList<>(ids.size());
    Set<String> seen = new HashSet<>();
    for (String id : ids) {
      Optional<StoredMemory> m = read.get(id);
      if (m.isPresent() && seen.add(id)) {
        out.add(m.get());
      }
    }
    return out;
  }
}
