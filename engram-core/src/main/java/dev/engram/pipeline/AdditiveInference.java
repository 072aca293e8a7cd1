package dev.engram.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.MemoryInference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * mem0's current open-source design: one call that only adds memories, seeing the scope's summary,
 * recent messages and the memories most similar to the new messages (numbered, for dedup and
 * links). Exact duplicates (md5 of the text, against the whole scope and within the answer) become
 * NOOP or are dropped. It never updates or deletes, so it never loses a fact; contradictions
 * accumulate and retrieval must rank the newer one. Thread-safe.
 *
 * <p>The links the model returns are validated and logged but not stored (as in mem0's open
 * source).
 */
public final class AdditiveInference implements MemoryInference {
  private final ModelCaller caller;
  private final PipelineOptions options;

  public AdditiveInference(ModelCaller caller, PipelineOptions options) {
    this.caller = Objects.requireNonNull(caller, "caller");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Its history rows name the pipeline {@value dev.engram.ChangePipelines#ADDITIVE}. */
  @Override
  public String pipelineName() {
    return dev.engram.ChangePipelines.ADDITIVE;
  }

  @Override
  public List<PlannedChange> plan(InferenceContext ctx) {
    Conversation conv = Conversation.of(ctx, options.recentMessages());
    if (conv.newMessages().isEmpty()) {
      return List.of();
    }
    String newText =
        conv.newMessages().stream().map(Message::content).collect(Collectors.joining("\n"));
    List<MemoryItem> existing = ctx.memories().similar(newText, options.similarMemories());
    StringBuilder user =
        new StringBuilder(conv.extractionInput(ctx.summary())).append("\n\n## Existing memories\n");
    if (existing.isEmpty()) {
      user.append("(none)\n");
    }
    for (int i = 0; i < existing.size(); i++) {
      user.append(i).append(": ").append(existing.get(i).text()).append('\n');
    }
    String system =
        options.extractionPrompt().isEmpty()
            ? Prompts.withInstructions(Prompts.ADDITIVE_EXTRACT, options.customInstructions())
            : options.extractionPrompt();
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            system,
            user.toString().trim(),
            "memories",
            Schemas.MEMORIES,
            options.maxOutputTokens(),
            options.temperature());
    List<String> texts =
        caller.callJson(
            "additive extraction", prompt, ctx.usage(), AdditiveInference::readMemories);
    List<PlannedChange> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (MemoryItem m : existing) {
      seen.add(m.hash());
    }
    for (String text : texts) {
      String hash = Hashes.md5(text);
      if (!seen.add(hash)) {
        continue;
      }
      List<MemoryItem> same = ctx.memories().withText(text);
      if (!same.isEmpty()) {
        out.add(new Noop(same.get(0).id()));
        continue;
      }
      out.add(
          new Add(
              text,
              conv.speaker(),
              conv.speaker() == null ? null : Role.USER,
              conv.time(),
              conv.sourceIds()));
    }
    return out;
  }

  static List<String> readMemories(JsonNode answer) {
    JsonNode list = answer.get("memories");
    if (list == null || !list.isArray()) {
      list = answer.get("memory");
    }
    if (list == null || !list.isArray()) {
      throw ConsolidatingInference.invalid(
          "additive extraction", "expected {\"memories\": [...]}, got " + answer);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode m : list) {
      String text = m.isTextual() ? m.asText() : m.path("text").asText("");
      if (!text.isBlank()) {
        out.add(text.trim());
      }
    }
    return out;
  }
}
