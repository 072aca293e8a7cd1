package dev.engram.cli;

import dev.engram.AddRequest;
import java.util.List;

/**
 * What an import will write, fully parsed and validated before anything is written: batches of add
 * requests, each applied with one {@code addBatch} (one transaction).
 *
 * @param batches the batches, in file order
 * @param units what the file held, for the summary (for example "2 conversations, 19 sessions")
 */
record ImportPlan(List<List<AddRequest>> batches, String units) {
  ImportPlan {
    batches = List.copyOf(batches);
  }

  /** How many messages the batches hold. */
  long messageCount() {
    return batches.stream().mapToLong(ImportPlan::messages).sum();
  }

  static long messages(List<AddRequest> batch) {
    return batch.stream().mapToLong(r -> r.messages().size()).sum();
  }
}
