package dev.engram.engine;

import dev.engram.Engram;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.spi.MemoryInference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The inference used when no extractor is configured: each non-system message becomes a memory
 * verbatim, unless the scope already holds the same text (then NOOP). It never updates or deletes.
 * A message longer than the engine's passage limit ({@link Engram.Builder#passageTokens}) becomes
 * one memory per passage, each with the message's provenance and its offsets ({@link
 * MemoryItem#PASSAGE_START}), the limit its {@link InferenceContext} carries.
 */
public final class VerbatimInference implements MemoryInference {

  /** Its history rows name the pipeline {@value dev.engram.ChangePipelines#VERBATIM}. */
  @Override
  public String pipelineName() {
    return dev.engram.ChangePipelines.VERBATIM;
  }

  @Override
  public List<PlannedChange> plan(InferenceContext context) {
    List<PlannedChange> out = new ArrayList<>();
    Map<String, Boolean> seen = new HashMap<>();
    for (Message m : context.messages()) {
      if (m.role() == Role.SYSTEM) {
        continue;
      }
      for (Add add :
          VerbatimPassages.of(
              m, context.timestamp(), context.passageTokens(), context.tokenCounter())) {
        String text = add.text();
        if (seen.putIfAbsent(text, Boolean.TRUE) != null) {
          continue;
        }
        List<MemoryItem> same = context.memories().withText(text);
        if (!same.isEmpty()) {
          out.add(new Noop(same.get(0).id()));
          continue;
        }
        out.add(add);
      }
    }
    return out;
  }
}
