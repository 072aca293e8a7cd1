package dev.engram.bench.locomo;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.scale.HashingEmbedder;
import dev.engram.extract.OfflineExtractor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a mode of {@code bench locomo} stores of a conversation, without the search: the memories
 * the offline extractor keeps (extract mode, two turns per add, one scope for the conversation), as
 * texts with their source turn ids. The store is embedded with the hashing embedder, which costs
 * next to nothing; the extractor's output does not depend on the embedder except through its repeat
 * check, so the texts are those of an extract-mode run up to a few repeats. For {@code engram bench
 * calibrate}, which embeds the texts with the model it fits.
 */
public final class StoredMemories {
  /** One stored memory: its text and the turns it was drawn from. */
  public record Kept(String text, List<String> sourceIds) {
    public Kept {
      sourceIds = List.copyOf(sourceIds);
    }
  }

  private StoredMemories() {}

  /** The memories extract mode stores of {@code c}, in the store's list order. */
  public static List<Kept> extracted(Conversation c, Path workDir) {
    Path dir = workDir.resolve("calibrate-" + c.sampleId() + "-" + System.nanoTime());
    try (ConversationStore store =
        ConversationStore.open(
            dir,
            c,
            LocomoBench.ScopeLayout.CONVERSATION,
            HashingEmbedder.create(),
            Fusion.defaultFor(false),
            b -> b.inference(OfflineExtractor.create()))) {
      store.ingest(LocomoBench.Mode.EXTRACT.defaultTurnsPerAdd(), true, false, n -> {});
      List<Kept> out = new ArrayList<>();
      for (MemoryItem m : store.memories(store.scopes().get(0))) {
        out.add(new Kept(m.text(), m.sourceIds()));
      }
      return out;
    }
  }
}
