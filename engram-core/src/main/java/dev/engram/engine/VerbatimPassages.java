package dev.engram.engine;

import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.TokenCounter;
import dev.engram.spi.MemoryInference;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The verbatim memories of one message: the message whole when it is within the passage limit
 * ({@link dev.engram.Engram.Builder#passageTokens}), else one memory per passage ({@link
 * Passages}), each with the message's provenance (speaker, role, event time, source ids) and its
 * offsets in the message's content ({@link MemoryItem#PASSAGE_START}, {@link
 * MemoryItem#PASSAGE_END}) and their number ({@link MemoryItem#PASSAGE_COUNT}); such a passage is
 * its own context (the add path draws it no source context). Shared by the raw add path and {@link
 * VerbatimInference}.
 */
final class VerbatimPassages {
  private VerbatimPassages() {}

  static List<MemoryInference.Add> of(
      Message m, Instant requestTimestamp, int passageTokens, TokenCounter counter) {
    Messages.Source src = Messages.source(m, requestTimestamp);
    String content = m.content();
    List<Passage> passages =
        counter.count(content) <= passageTokens
            ? List.of()
            : Passages.split(content, passageTokens, counter);
    if (passages.isEmpty()) {
      return List.of(
          new MemoryInference.Add(
              content.trim(), m.name(), m.role(), src.eventTime(), src.sourceIds()));
    }
    List<MemoryInference.Add> adds = new ArrayList<>(passages.size());
    for (Passage p : passages) {
      adds.add(
          new MemoryInference.Add(
              p.text(),
              m.name(),
              m.role(),
              src.eventTime(),
              src.sourceIds(),
              Map.of(
                  MemoryItem.PASSAGE_START,
                  p.start(),
                  MemoryItem.PASSAGE_END,
                  p.end(),
                  MemoryItem.PASSAGE_COUNT,
                  passages.size())));
    }
    return adds;
  }
}
