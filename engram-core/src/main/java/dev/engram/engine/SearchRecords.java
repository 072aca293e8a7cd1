package dev.engram.engine;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The records one search has read from the store, so that each is read at most once per search: the
 * ranking steps (the neighbours' anchors and the memories near them, the feedback's best hits) and
 * the choice of hits read through it, and a record an earlier step read is not read again. A record
 * missing from the store (deleted between the index read and the record read) is remembered as
 * missing. A step that needs only the candidates' metadata reads that alone ({@link #metadata}),
 * for the many candidates that never become hits. One per search; not thread-safe.
 */
final class SearchRecords {
  private final MemoryStore store;
  private final String tenant;
  private final Map<String, StoredMemory> found = new HashMap<>();
  private final Map<String, Map<String, Object>> metadataOnly = new HashMap<>();
  private final Set<String> missing = new HashSet<>();

  SearchRecords(MemoryStore store, String tenant) {
    this.store = store;
    this.tenant = tenant;
  }

  /**
   * The records of {@code ids} (distinct, as a ranking lists them) that exist, in the order of
   * {@code ids}; those not read yet in this search are read in one {@link MemoryStore#getAll} call.
   */
  List<StoredMemory> get(List<String> ids) {
    List<String> unread = new ArrayList<>();
    for (String id : ids) {
      if (!found.containsKey(id) && !missing.contains(id)) {
        unread.add(id);
      }
    }
    if (!unread.isEmpty()) {
      for (StoredMemory m : store.getAll(tenant, unread)) {
        found.put(m.id(), m);
      }
      for (String id : unread) {
        if (!found.containsKey(id)) {
          missing.add(id);
        }
      }
    }
    List<StoredMemory> out = new ArrayList<>(ids.size());
    for (String id : ids) {
      StoredMemory m = found.get(id);
      if (m != null) {
        out.add(m);
      }
    }
    return out;
  }

  /**
   * The metadata of those of {@code ids} that exist, by id: from the records read already, else
   * from metadata read before, else read in one {@link MemoryStore#metadata} call, which reads no
   * text or embedding. A later {@link #get} still reads the whole record.
   */
  Map<String, Map<String, Object>> metadata(List<String> ids) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    List<String> unread = new ArrayList<>();
    for (String id : ids) {
      StoredMemory m = found.get(id);
      Map<String, Object> known = m != null ? m.item().metadata() : metadataOnly.get(id);
      if (known != null) {
        out.put(id, known);
      } else if (!missing.contains(id)) {
        unread.add(id);
      }
    }
    if (!unread.isEmpty()) {
      Map<String, Map<String, Object>> read = store.metadata(tenant, unread);
      for (String id : unread) {
        Map<String, Object> metadata = read.get(id);
        if (metadata == null) {
          missing.add(id);
        } else {
          metadataOnly.put(id, metadata);
          out.put(id, metadata);
        }
      }
    }
    return out;
  }
}
