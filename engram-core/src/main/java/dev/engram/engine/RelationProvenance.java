package dev.engram.engine;

import dev.engram.Message;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.GraphExtractor.ExtractedRelation;
import dev.engram.spi.GraphExtractor.NewMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The provenance of one extracted relation: the source ids of the messages that state it and the
 * ids of the memories that support it, as narrow as the extractor knows them, never the whole add
 * when it knows better.
 *
 * <ol>
 *   <li>The extractor named its messages ({@link ExtractedRelation#messages()}, for example the LLM
 *       extractor's message numbers): their source ids; its memories are those it named, else the
 *       add's memories whose provenance shares one of these source ids, else every memory of the
 *       add.
 *   <li>It named its memories ({@link ExtractedRelation#memoryIds()}, for example the offline
 *       extractor's one memory): the source ids of those memories ({@link NewMemory#sourceIds()});
 *       if none of them has any, every message of the add (a memory pipeline that records no
 *       provenance).
 *   <li>Neither: every message and every memory of the add.
 * </ol>
 */
final class RelationProvenance {
  private RelationProvenance() {}

  /** Where a relation came from: message source ids and memory ids, in order, without repeats. */
  record Sources(List<String> messageIds, List<String> memoryIds) {}

  static Sources of(ExtractedRelation r, GraphExtractor.Input input) {
    List<Message> messages = input.messages();
    List<String> allMemoryIds = input.memories().stream().map(NewMemory::id).toList();
    Set<String> allMessageIds = new LinkedHashSet<>();
    messages.forEach(
        m -> {
          if (m.sourceId() != null) {
            allMessageIds.add(m.sourceId());
          }
        });
    List<Integer> positions =
        r.messages().stream()
            .filter(i -> i != null && i >= 0 && i < messages.size())
            .distinct()
            .toList();
    if (!positions.isEmpty()) {
      Set<String> ids = new LinkedHashSet<>();
      for (int i : positions) {
        String id = messages.get(i).sourceId();
        if (id != null) {
          ids.add(id);
        }
      }
      List<String> memoryIds = r.memoryIds();
      if (memoryIds.isEmpty()) {
        memoryIds =
            input.memories().stream()
                .filter(m -> m.sourceIds().stream().anyMatch(ids::contains))
                .map(NewMemory::id)
                .toList();
      }
      return new Sources(List.copyOf(ids), memoryIds.isEmpty() ? allMemoryIds : memoryIds);
    }
    if (r.memoryIds().isEmpty()) {
      return new Sources(List.copyOf(allMessageIds), allMemoryIds);
    }
    Map<String, NewMemory> byId = new HashMap<>();
    input.memories().forEach(m -> byId.put(m.id(), m));
    Set<String> ids = new LinkedHashSet<>();
    for (String id : r.memoryIds()) {
      NewMemory m = byId.get(id);
      if (m != null) {
        ids.addAll(m.sourceIds());
      }
    }
    return new Sources(new ArrayList<>(ids.isEmpty() ? allMessageIds : ids), r.memoryIds());
  }
}
