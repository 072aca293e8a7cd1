package dev.engram.bench.pipeline;

import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Observation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.spi.LanguageModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted language model for cost measurements (a fake: no LLM runs): it answers the pipeline's
 * prompts with LoCoMo's own observations for the turns in the prompt, so that prompts grow as they
 * would with a real model, and it counts calls and cl100k tokens. Extraction returns the
 * observations cited by the new messages'; the decision step adds every fact unless an existing
 * memory shows the same text (NOOP); the additive step returns the facts as memories. Thread-safe.
 */
public final class ObservationScriptedModel implements LanguageModel {
  private static final Pattern LINE =
      Pattern.compile("(?m)^(?:\\[[^\\]]*\\] )?[^:\\n]*\\((?:user|assistant)\\): (.*)$");
  private static final Pattern NEW_FACT = Pattern.compile("(?m)^(\\d+): (.*)$");

  private final Map<String, List<String>> factsByDiaId = new HashMap<>();
  private final Map<String, String> diaIdByText = new HashMap<>();
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong promptTokens = new AtomicLong();
  private final AtomicLong completionTokens = new AtomicLong();

  public ObservationScriptedModel(Conversation conversation) {
    for (Session s : conversation.sessions()) {
      for (Turn t : s.turns()) {
        diaIdByText.put(t.text().trim(), t.diaId());
      }
    }
    for (Observation o : conversation.observations()) {
      if (!o.diaIds().isEmpty()) {
        factsByDiaId.computeIfAbsent(o.diaIds().get(0), k -> new ArrayList<>()).add(o.text());
      }
    }
  }

  @Override
  public String modelId() {
    return "scripted-locomo-observations";
  }

  @Override
  public Completion complete(Prompt p) {
    String answer =
        switch (p.schemaName() == null ? "" : p.schemaName()) {
          case "facts" -> json("facts", facts(p.user()));
          case "memories" -> memories(facts(p.user()));
          case "decisions" -> decisions(p.user());
          default -> "A short running summary.";
        };
    int in = TokenCounter.cl100k().count(p.system()) + TokenCounter.cl100k().count(p.user());
    int out = TokenCounter.cl100k().count(answer);
    calls.incrementAndGet();
    promptTokens.addAndGet(in);
    completionTokens.addAndGet(out);
    return new Completion(answer, in, out, Duration.ZERO);
  }

  public long calls() {
    return calls.get();
  }

  public long promptTokens() {
    return promptTokens.get();
  }

  public long completionTokens() {
    return completionTokens.get();
  }

  /** The observations cited by the dia_ids in the prompt's new-messages section. */
  private List<String> facts(String user) {
    int at = user.indexOf("## New messages");
    String section = at < 0 ? user : user.substring(at);
    int end = section.indexOf("\n## ", 4);
    if (end > 0) {
      section = section.substring(0, end);
    }
    List<String> out = new ArrayList<>();
    Matcher m = LINE.matcher(section);
    while (m.find()) {
      String diaId = diaIdByText.get(m.group(1).trim());
      if (diaId != null) {
        out.addAll(factsByDiaId.getOrDefault(diaId, List.of()));
      }
    }
    return out;
  }

  private static String decisions(String user) {
    String existing = user.substring(0, user.indexOf("## New facts"));
    Map<String, Integer> shown = new HashMap<>();
    Matcher e = NEW_FACT.matcher(existing);
    while (e.find()) {
      shown.put(e.group(2), Integer.parseInt(e.group(1)));
    }
    StringBuilder sb = new StringBuilder("{\"decisions\": [");
    Matcher f = NEW_FACT.matcher(user.substring(user.indexOf("## New facts")));
    boolean first = true;
    while (f.find()) {
      Integer id = shown.get(f.group(2));
      sb.append(first ? "" : ", ")
          .append("{\"fact\": ")
          .append(f.group(1))
          .append(", \"event\": \"")
          .append(id == null ? "ADD" : "NOOP")
          .append("\", \"id\": ")
          .append(id)
          .append(", \"text\": ")
          .append(id == null ? quote(f.group(2)) : "null")
          .append('}');
      first = false;
    }
    return sb.append("]}").toString();
  }

  private static String memories(List<String> facts) {
    StringBuilder sb = new StringBuilder("{\"memories\": [");
    for (int i = 0; i < facts.size(); i++) {
      sb.append(i == 0 ? "" : ", ")
          .append("{\"text\": ")
          .append(quote(facts.get(i)))
          .append(", \"links\": []}");
    }
    return sb.append("]}").toString();
  }

  private static String json(String key, List<String> values) {
    StringBuilder sb = new StringBuilder("{\"").append(key).append("\": [");
    for (int i = 0; i < values.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
    }
    return sb.append("]}").toString();
  }

  private static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
