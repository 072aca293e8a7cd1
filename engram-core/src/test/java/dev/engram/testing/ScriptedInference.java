package dev.engram.testing;

import dev.engram.ChangePipelines;
import dev.engram.spi.MemoryInference;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A scripted inference (a fake: no language model runs in tests): every inferred add gets the plan
 * set last with {@link #next}, under the consolidating pipeline's name.
 */
public final class ScriptedInference implements MemoryInference {
  private final AtomicReference<List<PlannedChange>> next = new AtomicReference<>(List.of());

  /** What the following inferred adds plan, until set again. */
  public void next(PlannedChange... changes) {
    next.set(List.of(changes));
  }

  @Override
  public List<PlannedChange> plan(InferenceContext context) {
    return next.get();
  }

  @Override
  public String pipelineName() {
    return ChangePipelines.CONSOLIDATE;
  }
}
