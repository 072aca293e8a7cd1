package dev.engram.bench.locomo;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.bench.locomo.Locomo.Observation;
import dev.engram.spi.MemoryInference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link MemoryInference} that replays LoCoMo's LLM-written observations as the extracted facts:
 * when an add contains the turn an observation cites first, the observation is added, with all its
 * dia_ids as provenance. It gives retrieval over LLM-grade facts without an LLM. Thread-safe
 * (read-only after construction).
 */
public final class ObservationReplay implements MemoryInference {
  private final Map<String, List<Observation>> byFirstDiaId = new HashMap<>();

  public ObservationReplay(List<Observation> observations) {
    for (Observation o : observations) {
      if (!o.diaIds().isEmpty()) {
        byFirstDiaId.computeIfAbsent(o.diaIds().get(0), k -> new ArrayList<>()).add(o);
      }
    }
  }

  /** Its history rows name the pipeline {@code observation_replay}. */
  @Override
  public String pipelineName() {
    return "observation_replay";
  }

  @Override
  public List<PlannedChange> plan(InferenceContext context) {
    List<PlannedChange> out = new ArrayList<>();
    for (Message m : context.messages()) {
      if (m.sourceId() == null) {
        continue;
      }
      for (Observation o : byFirstDiaId.getOrDefault(m.sourceId(), List.of())) {
        out.add(new Add(o.text(), o.speaker(), Role.USER, m.timestamp(), o.diaIds()));
      }
    }
    return out;
  }
}
