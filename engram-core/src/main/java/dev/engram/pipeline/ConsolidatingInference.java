package dev.engram.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.MemoryInference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Mem0 paper's pipeline: (1) extract candidate facts from the new messages, given the scope's
 * rolling summary and its last m messages; (2) for each fact fetch the s most similar memories of
 * the scope; (3) one call decides per fact ADD, UPDATE, DELETE or NOOP. Existing memories are shown
 * as small integers and mapped back; a number the model invents is ignored and logged. Any failed
 * call fails the whole add: the engine then writes nothing. Thread-safe.
 */
public final class ConsolidatingInference implements MemoryInference {
  private static final Logger LOG = LoggerFactory.getLogger(ConsolidatingInference.class);

  private final ModelCaller caller;
  private final PipelineOptions options;

  public ConsolidatingInference(ModelCaller caller, PipelineOptions options) {
    this.caller = Objects.requireNonNull(caller, "caller");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Its history rows name the pipeline {@value dev.engram.ChangePipelines#CONSOLIDATE}. */
  @Override
  public String pipelineName() {
    return dev.engram.ChangePipelines.CONSOLIDATE;
  }

  @Override
  public List<PlannedChange> plan(InferenceContext ctx) {
    Conversation conv = Conversation.of(ctx, options.recentMessages());
    if (conv.newMessages().isEmpty()) {
      return List.of();
    }
    List<String> facts = extract(ctx, conv);
    if (facts.isEmpty()) {
      return List.of();
    }
    List<MemoryItem> existing = similar(ctx, facts);
    return decide(ctx, conv, facts, existing);
  }

  private List<String> extract(InferenceContext ctx, Conversation conv) {
    String system =
        options.extractionPrompt().isEmpty()
            ? Prompts.withInstructions(Prompts.EXTRACT_FACTS, options.customInstructions())
            : options.extractionPrompt();
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            system,
            conv.extractionInput(ctx.summary()),
            "facts",
            Schemas.FACTS,
            options.maxOutputTokens(),
            options.temperature());
    return caller.callJson(
        "fact extraction", prompt, ctx.usage(), ConsolidatingInference::readFacts);
  }

  static List<String> readFacts(JsonNode answer) {
    JsonNode facts = answer.get("facts");
    if (facts == null || !facts.isArray()) {
      throw invalid("fact extraction", "expected {\"facts\": [...]}, got " + answer);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode f : facts) {
      String text = f.isTextual() ? f.asText() : f.path("fact").asText(f.path("text").asText(""));
      if (!text.isBlank()) {
        out.add(text.trim());
      }
    }
    return out;
  }

  private List<MemoryItem> similar(InferenceContext ctx, List<String> facts) {
    Map<String, MemoryItem> union = new LinkedHashMap<>();
    for (String fact : facts) {
      for (MemoryItem m : ctx.memories().similar(fact, options.similarMemories())) {
        union.putIfAbsent(m.id(), m);
      }
    }
    return new ArrayList<>(union.values());
  }

  private List<PlannedChange> decide(
      InferenceContext ctx, Conversation conv, List<String> facts, List<MemoryItem> existing) {
    StringBuilder user = new StringBuilder("## Existing memories\n");
    if (existing.isEmpty()) {
      user.append("(none)\n");
    }
    for (int i = 0; i < existing.size(); i++) {
      user.append(i).append(": ").append(existing.get(i).text()).append('\n');
    }
    user.append("\n## New facts\n");
    for (int i = 0; i < facts.size(); i++) {
      user.append(i).append(": ").append(facts.get(i)).append('\n');
    }
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            Prompts.DECIDE_UPDATES,
            user.toString().trim(),
            "decisions",
            Schemas.DECISIONS,
            options.maxOutputTokens(),
            options.temperature());
    List<Decision> decisions =
        caller.callJson(
            "memory consolidation", prompt, ctx.usage(), ConsolidatingInference::readDecisions);
    List<PlannedChange> out = new ArrayList<>();
    for (Decision d : decisions) {
      if (d.event.equals("ADD")) {
        String text =
            d.text != null
                ? d.text
                : d.fact >= 0 && d.fact < facts.size() ? facts.get(d.fact) : null;
        if (text == null || text.isBlank()) {
          LOG.warn("consolidation: ADD without text ignored");
          continue;
        }
        out.add(
            new Add(
                text.trim(),
                conv.speaker(),
                conv.speaker() == null ? null : Role.USER,
                conv.time(),
                conv.sourceIds()));
        continue;
      }
      if (d.id == null || d.id < 0 || d.id >= existing.size()) {
        LOG.warn(
            "consolidation: {} refers to memory number {}, which was not shown; ignored",
            d.event,
            d.id);
        continue;
      }
      String id = existing.get(d.id).id();
      switch (d.event) {
        case "UPDATE" -> {
          if (d.text == null || d.text.isBlank()) {
            LOG.warn("consolidation: UPDATE of {} without text ignored", d.id);
          } else {
            out.add(new Update(id, d.text.trim()));
          }
        }
        case "DELETE" -> out.add(new Delete(id));
        default -> out.add(new Noop(id));
      }
    }
    return out;
  }

  /** One decision as the model wrote it. */
  record Decision(int fact, String event, Integer id, String text) {}

  static List<Decision> readDecisions(JsonNode answer) {
    JsonNode list = answer.get("decisions");
    if (list == null || !list.isArray()) {
      throw invalid("memory consolidation", "expected {\"decisions\": [...]}, got " + answer);
    }
    List<Decision> out = new ArrayList<>();
    for (JsonNode d : list) {
      String event = d.path("event").asText("").trim().toUpperCase(java.util.Locale.ROOT);
      if (event.equals("NONE")) {
        event = "NOOP";
      }
      if (!List.of("ADD", "UPDATE", "DELETE", "NOOP").contains(event)) {
        throw invalid("memory consolidation", "decision without a known event: " + d);
      }
      JsonNode id = d.get("id");
      Integer num =
          id == null || id.isNull()
              ? null
              : id.canConvertToInt() ? Integer.valueOf(id.asInt()) : parseInt(id.asText());
      JsonNode text = d.get("text");
      out.add(
          new Decision(
              d.path("fact").asInt(-1),
              event,
              num,
              text == null || text.isNull() ? null : text.asText()));
    }
    return out;
  }

  private static Integer parseInt(String s) {
    try {
      return Integer.valueOf(s.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static LanguageModelException invalid(String step, String message) {
    return new LanguageModelException(
        LanguageModelException.Kind.INVALID_RESPONSE, step + ": " + message);
  }
}
