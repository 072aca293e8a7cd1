package dev.engram.spring;

import dev.engram.Memory;
import dev.engram.MemoryStatus;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Actuator health of the memory: UP when the stores answer and the index has caught up with the
 * record, OUT_OF_SERVICE while the index is being repaired, DOWN when the storage (or the server)
 * does not answer.
 */
public final class EngramHealthIndicator extends AbstractHealthIndicator {
  private final Memory memory;

  public EngramHealthIndicator(Memory memory) {
    super("Engram health check failed");
    this.memory = memory;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    MemoryStatus s = memory.status();
    (s.indexCaughtUp() ? builder.up() : builder.outOfService())
        .withDetail("recordSequence", s.recordSequence())
        .withDetail("indexCommittedSequence", s.indexCommittedSequence())
        .withDetail("indexStale", s.indexStale());
  }
}
