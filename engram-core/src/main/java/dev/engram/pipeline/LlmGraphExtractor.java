package dev.engram.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.Message;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The graph extractor with a language model (Mem0g's writing side): one call extracts entities with
 * types and relation triples with their dates, resolved against the message time (one combined call
 * instead of mem0's two: the conversation is sent once; see docs/ARCHITECTURE.md "Graph memory"),
 * each relation with the number of the message that states it, which becomes its provenance; one
 * call, only when some name's closest existing entities are similar but below the merge threshold,
 * says which entity each such name refers to; one more call per add, only when some new relation
 * has candidates, says which existing relations each new one contradicts or duplicates. Existing
 * relations are shown as small integers and mapped back; numbers the model invents are ignored.
 * Thread-safe.
 */
public final class LlmGraphExtractor implements GraphExtractor {
  static final String EXTRACT =
      """
      You build a knowledge graph from a conversation. List the entities (people, places, organisations, events,
      objects, concepts) that the new messages state facts about, each with a lower-case type, and the relations
      between them that the messages state explicitly.
      - A relation is a triple: source entity, relationship (a short snake_case verb phrase such as lives_in,
        works_at, likes, adopted), destination entity; plus "fact", one sentence stating it with full names.
      - First-person words (I, me, my) refer to the speaker named before the colon.
      - Prefer timeless relationship names (lives_in, not moved_to_live_in).
      - valid_at: when the relation started to hold, as an ISO date (YYYY-MM-DD) or date-time, resolving relative
        dates ("last year", "yesterday") against the message time; null if not stated. invalid_at: when it stopped
        holding, if stated; else null.
      - message: the number of the new message that states the relation.
      - Do not answer questions; do not invent facts.
      Answer with JSON: {"entities": [{"name": "...", "type": "..."}], "relations": [{"source": "...",
      "relationship": "...", "destination": "...", "fact": "...", "valid_at": null, "invalid_at": null,
      "message": 1}]}""";

  static final String JUDGE =
      """
      You maintain a knowledge graph over time. For each new fact you get existing facts, numbered, that share an
      entity with it. Say which existing facts the new fact contradicts (they are no longer true once the new fact
      holds, e.g. a new home replaces the old one) and which state the same fact (duplicates).
      - Do not mark facts as contradicted when both can hold at once (likes pizza and likes burgers).
      - Facts that differ in numbers, dates or qualifiers are not duplicates.
      Answer with JSON: {"verdicts": [{"new": 0, "contradicted": [1], "duplicates": []}]}""";

  static final String MATCH =
      """
      You keep the entities of a knowledge graph apart. For each new name from the conversation you get existing
      entities, numbered, with similar names. Say which existing entity the new name refers to, or 0 for none.
      - The same person, place or thing written differently is a match: case, spelling, abbreviation, nickname, a
        first name for a full name ("Mel" for "Melanie" when the conversation shows it is her).
      - Different people, places or things with similar names are not (John Smith and John Smyth, Paris and
        Paris, Texas) unless the conversation shows they are the same. When unsure, answer 0.
      Answer with JSON: {"matches": [{"new": 0, "existing": 2}]}""";

  private static final Map<String, Object> EXTRACT_SCHEMA =
      object(
          Map.of(
              "entities",
                  Map.of(
                      "type",
                      "array",
                      "items",
                      object(
                          Map.of(
                              "name", Map.of("type", "string"), "type", Map.of("type", "string")))),
              "relations",
                  Map.of(
                      "type",
                      "array",
                      "items",
                      object(
                          Map.of(
                              "source",
                              Map.of("type", "string"),
                              "relationship",
                              Map.of("type", "string"),
                              "destination",
                              Map.of("type", "string"),
                              "fact",
                              Map.of("type", "string"),
                              "valid_at",
                              Map.of("type", List.of("string", "null")),
                              "invalid_at",
                              Map.of("type", List.of("string", "null")),
                              "message",
                              Map.of("type", List.of("integer", "null")))))));

  private static final Map<String, Object> MATCH_SCHEMA =
      object(
          Map.of(
              "matches",
              Map.of(
                  "type",
                  "array",
                  "items",
                  object(
                      Map.of(
                          "new",
                          Map.of("type", "integer"),
                          "existing",
                          Map.of("type", "integer"))))));

  private static final Map<String, Object> JUDGE_SCHEMA =
      object(
          Map.of(
              "verdicts",
              Map.of(
                  "type",
                  "array",
                  "items",
                  object(
                      Map.of(
                          "new", Map.of("type", "integer"),
                          "contradicted",
                              Map.of("type", "array", "items", Map.of("type", "integer")),
                          "duplicates",
                              Map.of("type", "array", "items", Map.of("type", "integer")))))));

  private final ModelCaller caller;
  private final int maxOutputTokens;

  /**
   * An extractor over a model caller.
   *
   * @param caller the model with its retry policy
   * @param maxOutputTokens the most tokens per answer
   */
  public LlmGraphExtractor(ModelCaller caller, int maxOutputTokens) {
    this.caller = Objects.requireNonNull(caller, "caller");
    if (maxOutputTokens < 1) {
      throw new IllegalArgumentException(
          "maxOutputTokens must be positive, got " + maxOutputTokens);
    }
    this.maxOutputTokens = maxOutputTokens;
  }

  @Override
  public Extraction extract(Input input) {
    if (input.messages().isEmpty()) {
      return Extraction.EMPTY;
    }
    Instant at = input.timestamp();
    StringBuilder user = new StringBuilder();
    if (at != null) {
      user.append("Message time: ").append(at).append("\n");
    }
    user.append("New messages:\n").append(numbered(input.messages()));
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            EXTRACT, user.toString(), "graph", EXTRACT_SCHEMA, maxOutputTokens, 0.0);
    int count = input.messages().size();
    return caller.callJson(
        "graph extraction", prompt, input.usage(), a -> readExtraction(a, count));
  }

  /**
   * The transcript with each message numbered from 1 ({@code 1. [time] name (role): text}), so that
   * the model can say which message states a relation.
   */
  static String numbered(List<Message> messages) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < messages.size(); i++) {
      sb.append(i + 1)
          .append(". ")
          .append(Prompts.transcript(List.of(messages.get(i))))
          .append('\n');
    }
    return sb.toString().trim();
  }

  /** An answer without message numbers (every relation then comes from the whole add). */
  static Extraction readExtraction(JsonNode answer) {
    return readExtraction(answer, 0);
  }

  /**
   * Reads an extraction; {@code messages} is how many messages were shown: a relation's {@code
   * "message"} (a number from 1, or a list of them under {@code "message"} or {@code "messages"})
   * becomes a position in the add's messages; numbers outside 1..messages are ignored.
   */
  static Extraction readExtraction(JsonNode answer, int messages) {
    JsonNode entities = answer.get("entities");
    JsonNode relations = answer.get("relations");
    if ((entities == null || !entities.isArray()) && (relations == null || !relations.isArray())) {
      throw invalid(
          "graph extraction",
          "expected {\"entities\": [...], \"relations\": [...]}, got " + answer);
    }
    List<ExtractedEntity> es = new ArrayList<>();
    for (JsonNode e : entities == null ? List.<JsonNode>of() : iterable(entities)) {
      String name = e.isTextual() ? e.asText() : e.path("name").asText(e.path("entity").asText(""));
      if (!name.isBlank()) {
        es.add(
            new ExtractedEntity(
                name.trim(), e.path("type").asText(e.path("entity_type").asText(null))));
      }
    }
    List<ExtractedRelation> rs = new ArrayList<>();
    for (JsonNode r : relations == null ? List.<JsonNode>of() : iterable(relations)) {
      String s = r.path("source").asText("");
      String rel = r.path("relationship").asText(r.path("relation").asText(""));
      String d = r.path("destination").asText(r.path("target").asText(""));
      if (s.isBlank() || rel.isBlank() || d.isBlank()) {
        continue; // malformed items are skipped, as mem0 does
      }
      String fact = r.path("fact").asText("");
      if (fact.isBlank()) {
        fact = s + " " + rel.replace('_', ' ') + " " + d;
      }
      rs.add(
          new ExtractedRelation(
              s.trim(),
              rel.trim(),
              d.trim(),
              fact.trim(),
              date(r.get("valid_at")),
              date(r.get("invalid_at")),
              List.of(),
              positions(r.has("message") ? r.get("message") : r.get("messages"), messages)));
    }
    return new Extraction(es, rs);
  }

  @Override
  public List<EntityMatch> matchEntities(
      List<Message> messages, List<EntityQuestion> questions, UsageMeter usage) {
    if (questions.isEmpty()) {
      return List.of();
    }
    List<String> ids = new ArrayList<>();
    StringBuilder user =
        new StringBuilder("Conversation:\n").append(Prompts.transcript(messages)).append('\n');
    for (EntityQuestion q : questions) {
      user.append("New name ")
          .append(q.index())
          .append(": ")
          .append(q.name())
          .append(" (")
          .append(q.type())
          .append(")\nExisting entities:\n");
      for (EntityCandidate c : q.candidates()) {
        int n = ids.indexOf(c.id());
        if (n < 0) {
          ids.add(c.id());
          n = ids.size() - 1;
        }
        user.append("  ")
            .append(n + 1)
            .append(". ")
            .append(c.name())
            .append(" (")
            .append(c.type())
            .append(")\n");
      }
    }
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            MATCH, user.toString().trim(), "matches", MATCH_SCHEMA, maxOutputTokens, 0.0);
    return caller.callJson("graph entity resolution", prompt, usage, a -> readMatches(a, ids));
  }

  static List<EntityMatch> readMatches(JsonNode answer, List<String> ids) {
    JsonNode matches = answer.get("matches");
    if (matches == null || !matches.isArray()) {
      throw invalid("graph entity resolution", "expected {\"matches\": [...]}, got " + answer);
    }
    List<EntityMatch> out = new ArrayList<>();
    for (JsonNode m : matches) {
      int existing = m.path("existing").asInt(0);
      if (m.path("new").canConvertToInt() && existing >= 1 && existing <= ids.size()) {
        out.add(new EntityMatch(m.path("new").asInt(), ids.get(existing - 1)));
      }
    }
    return out;
  }

  @Override
  public List<Verdict> judge(List<Question> questions, UsageMeter usage) {
    if (questions.isEmpty()) {
      return List.of();
    }
    List<String> ids = new ArrayList<>();
    StringBuilder user = new StringBuilder();
    for (Question q : questions) {
      user.append("New fact ").append(q.index()).append(": ").append(q.fact());
      if (q.validAt() != null) {
        user.append(" (since ").append(q.validAt()).append(')');
      }
      user.append("\nExisting facts:\n");
      for (Candidate c : q.candidates()) {
        int n = ids.indexOf(c.id());
        if (n < 0) {
          ids.add(c.id());
          n = ids.size() - 1;
        }
        user.append("  ").append(n + 1).append(". ").append(c.fact());
        if (c.validAt() != null) {
          user.append(" (since ").append(c.validAt()).append(')');
        }
        user.append('\n');
      }
    }
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            JUDGE, user.toString().trim(), "verdicts", JUDGE_SCHEMA, maxOutputTokens, 0.0);
    return caller.callJson("graph conflict resolution", prompt, usage, a -> readVerdicts(a, ids));
  }

  static List<Verdict> readVerdicts(JsonNode answer, List<String> ids) {
    JsonNode verdicts = answer.get("verdicts");
    if (verdicts == null || !verdicts.isArray()) {
      throw invalid("graph conflict resolution", "expected {\"verdicts\": [...]}, got " + answer);
    }
    List<Verdict> out = new ArrayList<>();
    for (JsonNode v : verdicts) {
      if (!v.path("new").canConvertToInt()) {
        continue;
      }
      out.add(
          new Verdict(
              v.path("new").asInt(),
              numbers(v.get("contradicted"), ids),
              numbers(v.get("duplicates"), ids)));
    }
    return out;
  }

  /**
   * Message numbers (from 1; one number, a numeric string or a list) as positions from 0 among
   * {@code count}.
   */
  private static List<Integer> positions(JsonNode node, int count) {
    List<Integer> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    for (JsonNode n : node.isArray() ? iterable(node) : List.of(node)) {
      int i = n.asInt(0);
      if (i >= 1 && i <= count && !out.contains(i - 1)) {
        out.add(i - 1);
      }
    }
    return out;
  }

  private static List<String> numbers(JsonNode list, List<String> ids) {
    List<String> out = new ArrayList<>();
    if (list != null && list.isArray()) {
      for (JsonNode n : list) {
        int i = n.asInt(0);
        if (i >= 1 && i <= ids.size()) {
          out.add(ids.get(i - 1));
        }
      }
    }
    return out;
  }

  /** An ISO date (start of day, UTC) or date-time; null for null, blank or unparseable values. */
  static Instant date(JsonNode node) {
    if (node == null || !node.isTextual() || node.asText().isBlank()) {
      return null;
    }
    String s = node.asText().trim();
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(s);
      } catch (DateTimeParseException e2) {
        try {
          return LocalDate.parse(s.length() > 10 ? s.substring(0, 10) : s)
              .atStartOfDay(ZoneOffset.UTC)
              .toInstant();
        } catch (DateTimeParseException e3) {
          return null;
        }
      }
    }
  }

  private static Iterable<JsonNode> iterable(JsonNode array) {
    return array::elements;
  }

  private static LanguageModelException invalid(String step, String message) {
    return new LanguageModelException(
        LanguageModelException.Kind.INVALID_RESPONSE, step + ": " + message);
  }

  private static Map<String, Object> object(Map<String, Object> properties) {
    return Map.of(
        "type",
        "object",
        "properties",
        properties,
        "required",
        List.copyOf(properties.keySet()),
        "additionalProperties",
        false);
  }

  /** For transcripts in tests. */
  static String transcript(List<Message> messages) {
    return Prompts.transcript(messages);
  }
}
