package dev.engram.mcp;

import static dev.engram.mcp.ToolSchemas.anyObject;
import static dev.engram.mcp.ToolSchemas.bool;
import static dev.engram.mcp.ToolSchemas.integer;
import static dev.engram.mcp.ToolSchemas.messages;
import static dev.engram.mcp.ToolSchemas.number;
import static dev.engram.mcp.ToolSchemas.object;
import static dev.engram.mcp.ToolSchemas.props;
import static dev.engram.mcp.ToolSchemas.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.graph.TimeView;
import dev.engram.json.JsonInput;
import dev.engram.json.MemoryJson;
import dev.engram.json.MessageJson;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The memory tools: each a name, a description written for a model, an input schema and a handler
 * over the {@link Memory} of the caller. Every handler resolves the call's scope from its arguments
 * and the {@link ScopeDefaults}, and reads or writes only that scope of the caller's tenant; calls
 * by memory id first check that the memory lies inside that scope and otherwise answer as if it did
 * not exist.
 */
final class MemoryTools {
  static final String ADD = "add_memory";
  static final String SEARCH = "search_memories";
  static final String LIST = "list_memories";
  static final String GET = "get_memory";
  static final String UPDATE = "update_memory";
  static final String DELETE = "delete_memory";
  static final String DELETE_ALL = "delete_all_memories";
  static final String HISTORY = "memory_history";
  static final String ENTITY_RELATIONS = "entity_relations";
  static final String GRAPH_AROUND = "graph_around";

  private static final int DEFAULT_LIST_LIMIT = 50;
  private static final int MAX_LIST_LIMIT = 1000;

  private final ScopeDefaults defaults;

  MemoryTools(ScopeDefaults defaults) {
    this.defaults = defaults;
  }

  /**
   * The tool specifications, each calling {@code source} for the memory of the request it serves.
   */
  List<SyncToolSpecification> specifications(MemorySource source) {
    List<SyncToolSpecification> out = new ArrayList<>();
    for (ToolDefinition t : definitions()) {
      out.add(
          SyncToolSpecification.builder()
              .tool(t.tool())
              .callHandler((exchange, request) -> t.call(source, exchange, request))
              .build());
    }
    return out;
  }

  List<ToolDefinition> definitions() {
    return List.of(
        add(),
        search(),
        list(),
        get(),
        update(),
        delete(),
        deleteAll(),
        history(),
        entityRelations(),
        graphAround());
  }

  // ---- the tools ----

  private ToolDefinition add() {
    Map<String, Object> schema =
        object(
            props(
                "text",
                    string(
                        "What to remember, as plain text said by the user. Give this or messages."),
                "messages",
                    messages("The conversation to remember, oldest first. Give this or text."),
                "name",
                    string(
                        "The speaker's name for text (e.g. Alice), so facts read 'Alice likes tea'."),
                "infer",
                    bool(
                        "true (default): extract short facts and merge them with what is already known (updates "
                            + "and deduplicates). false: store each message verbatim."),
                "metadata",
                    anyObject(
                        "JSON object stored on every new memory (e.g. {\"topic\": \"travel\"}); filterable "
                            + "later."),
                "timestamp",
                    string(
                        "When the conversation took place, ISO-8601; defaults to now. Relative dates "
                            + "('yesterday') are resolved against it."),
                "expiration_date",
                    string("First day (YYYY-MM-DD) on which the new memories are expired.")),
            List.of());
    return new ToolDefinition(
        ADD,
        "Add memory",
        "Remember something for later: a fact the user stated, a preference, a decision, an event. Call it when "
            + "the user shares information worth recalling in a future conversation, or asks you to remember "
            + "something. Pass the user's words as text (or the recent turns as messages); with infer=true Engram "
            + "extracts short facts and updates or skips what it already knows. Returns one event per memory "
            + "touched (ADD, UPDATE, DELETE or NOOP) with its id and text.",
        schema,
        annotations(false, false, false),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          List<Message> messages = messagesOf(args);
          AddRequest.Builder b =
              AddRequest.builder(scope).messages(messages).infer(args.bool("infer").orElse(true));
          args.object("metadata").ifPresent(b::metadata);
          args.string("timestamp").ifPresent(t -> b.timestamp(JsonInput.instant("timestamp", t)));
          args.string("expiration_date")
              .ifPresent(d -> b.expiration(JsonInput.date("expiration_date", d)));
          AddRequest request = b.build();
          checkLength(memory, request, args.string("text").isPresent());
          progress.report(0, 1, "remembering " + messages.size() + " message(s) in " + scope.key());
          AddResult result = memory.add(request);
          progress.report(1, 1, "stored " + result.events().size() + " event(s)");
          return new ToolOutcome(ToolText.added(scope, result), MemoryJson.addResult(result));
        });
  }

  private ToolDefinition search() {
    Map<String, Object> schema =
        object(
            props(
                "query",
                    string(
                        "What to look for, in natural language (e.g. 'where does the user live?')."),
                "filters",
                    anyObject(
                        "Optional conditions in mem0's filter form on metadata and fields such as "
                            + "created_at, event_time, actor_id, role: {\"topic\": \"travel\"}, {\"event_time\": {\"gte\": "
                            + "\"2024-01-01\"}}, {\"OR\": [{...}, {...}]}, {\"NOT\": [{...}]}; operators eq, ne, gt, gte, lt, lte, "
                            + "in, nin, contains, icontains."),
                "top_k",
                    integer("How many memories at most (default 10).", 1, SearchRequest.MAX_TOP_K),
                "threshold",
                    number(
                        "Minimum relevance score in [0, 1] (default "
                            + SearchRequest.DEFAULT_THRESHOLD
                            + ").",
                        0,
                        1),
                "max_tokens",
                    integer(
                        "A context budget in tokens (OpenAI's cl100k_base by default): the best memories"
                            + " that fit into it, instead of top_k (optional).",
                        1,
                        SearchRequest.MAX_TOKENS),
                "rerank",
                    bool(
                        "true: reorder the best matches with the configured reranker, when there is one (slower;"
                            + " default false)."),
                "ranking",
                    string(
                        "The ranking steps after fusion, comma-separated: neighbours, dates, feedback, context,"
                            + " diversity, hubs, names (a query naming someone no memory mentions gets nothing), passages, facts,"
                            + " instructions (an instruction the user gave for what the query asks about comes early);"
                            + " or none, all, default (e.g. 'default,diversity'). Default: default."),
                "include_relations",
                    bool(
                        "true (default): also return related facts from the graph memory, when on."),
                "as_of",
                    string("Graph relations as they held at this instant (ISO-8601); default now."),
                "include_invalidated", bool("true: include graph relations that no longer hold.")),
            List.of("query"));
    return new ToolDefinition(
        SEARCH,
        "Search memories",
        "Find what is remembered about a topic. Call it before answering anything that may depend on the user's "
            + "past, preferences, plans or earlier conversations, and whenever the user asks what you know or "
            + "remember. Hybrid semantic and keyword search inside one scope, optionally filtered. Returns the "
            + "best matching memories, best first, each with its text, date, relevance score and id, plus related "
            + "graph facts when graph memory is on.",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          String query = args.requiredString("query");
          SearchRequest.Builder b = SearchRequest.builder(scope, query).filter(filter(args));
          args.integer("top_k", 1, SearchRequest.MAX_TOP_K).ifPresent(b::topK);
          args.number("threshold", 0, 1).ifPresent(b::threshold);
          args.bool("rerank").ifPresent(b::rerank);
          args.integer("max_tokens", 1, SearchRequest.MAX_TOKENS).ifPresent(b::maxTokens);
          args.string("ranking").ifPresent(spec -> b.ranking(Ranking.parse(spec, "ranking")));
          SearchRequest request = b.build();
          TimeView view = timeView(args);
          SearchResult found = memory.search(request, view);
          if (!args.bool("include_relations").orElse(true)) {
            found = new SearchResult(found.hits(), List.of());
          }
          return new ToolOutcome(
              ToolText.searched(scope, query, found), MemoryJson.searchResult(found));
        });
  }

  private ToolDefinition list() {
    Map<String, Object> schema =
        object(
            props(
                "filters",
                    anyObject("Optional conditions in mem0's filter form (see search_memories)."),
                "limit",
                    integer("Page size (default " + DEFAULT_LIST_LIMIT + ").", 1, MAX_LIST_LIMIT),
                "offset", integer("How many memories to skip (default 0).", 0, Integer.MAX_VALUE),
                "include_expired", bool("true: include expired memories.")),
            List.of());
    return new ToolDefinition(
        LIST,
        "List memories",
        "List everything remembered in a scope, newest first, a page at a time. Call it when the user wants to "
            + "review or clean up their memories, or when you need all memories rather than the most relevant "
            + "ones (use search_memories for questions). Returns the memories with text, date and id, the total "
            + "count and the offset.",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          ListRequest request =
              new ListRequest(
                  scope,
                  filter(args),
                  args.integer("offset", 0, Integer.MAX_VALUE).orElse(0),
                  args.integer("limit", 1, MAX_LIST_LIMIT).orElse(DEFAULT_LIST_LIMIT),
                  args.bool("include_expired").orElse(false));
          var page = memory.list(request);
          return new ToolOutcome(ToolText.listed(scope, page), MemoryJson.page(page));
        });
  }

  private ToolDefinition get() {
    Map<String, Object> schema =
        object(
            props(
                "memory_id",
                string(
                    "The memory's id, as returned by "
                        + "search_memories, list_memories or add_memory.")),
            List.of("memory_id"));
    return new ToolDefinition(
        GET,
        "Get a memory",
        "Read one memory by id with all its details (text, metadata, scope, dates, provenance). Call it when "
            + "you have an id and need the full record. Returns the memory, or an error if no memory with that id "
            + "exists in the scope.",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          MemoryItem item = owned(memory, args);
          return new ToolOutcome(ToolText.item(item), MemoryJson.item(item));
        });
  }

  private ToolDefinition update() {
    Map<String, Object> schema =
        object(
            props(
                "memory_id", string("The id of the memory to change."),
                "text", string("The corrected text of the memory."),
                "metadata", anyObject("New metadata; replaces the old metadata entirely."),
                "expiration_date",
                    string("New first day (YYYY-MM-DD) on which the memory is expired.")),
            List.of("memory_id"));
    return new ToolDefinition(
        UPDATE,
        "Update a memory",
        "Correct or change one memory by id: new text, new metadata and/or a new expiration date (give at least "
            + "one). Call it when the user corrects something you remembered, or a fact changed and you know "
            + "which memory holds it. The old version stays in the memory's history. Returns the memory as it "
            + "is now.",
        schema,
        annotations(false, false, true),
        (memory, args, progress) -> {
          MemoryItem item = owned(memory, args);
          MemoryUpdate change = change(args);
          MemoryItem updated = memory.update(item.id(), change);
          return new ToolOutcome(ToolText.updated(updated), MemoryJson.item(updated));
        });
  }

  private ToolDefinition delete() {
    Map<String, Object> schema =
        object(props("memory_id", string("The id of the memory to delete.")), List.of("memory_id"));
    return new ToolDefinition(
        DELETE,
        "Delete a memory",
        "Forget one memory by id. Call it when the user asks you to forget something specific, or a memory is "
            + "wrong and should not be corrected but removed. Its history is kept. Returns the id of the deleted "
            + "memory.",
        schema,
        annotations(false, true, true),
        (memory, args, progress) -> {
          MemoryItem item = owned(memory, args);
          memory.delete(item.id());
          ObjectNode json = MemoryJson.mapper().createObjectNode();
          json.put("id", item.id());
          json.put("deleted", true);
          return new ToolOutcome(ToolText.deleted(item), json);
        });
  }

  private ToolDefinition deleteAll() {
    Map<String, Object> schema =
        object(
            props(
                "confirm",
                bool(
                    "Must be true: confirms that every memory of the "
                        + "scope is to be deleted. Ask the user before setting it.")),
            List.of("confirm"));
    return new ToolDefinition(
        DELETE_ALL,
        "Delete all memories of a scope",
        "Forget everything remembered in one scope (all memories of the user, agent or run, and their graph). "
            + "Irreversible: call it only when the user explicitly asks to erase all their memories, and pass "
            + "confirm=true. Returns how many memories were deleted.",
        schema,
        annotations(false, true, true),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          if (!args.bool("confirm")
              .orElseThrow(() -> new ValidationException("confirm", "is required"))) {
            throw new ValidationException(
                "confirm", "must be true to delete every memory of " + scope.key());
          }
          int count = memory.deleteAll(scope);
          ObjectNode json = MemoryJson.mapper().createObjectNode();
          json.put("deleted", count);
          json.set("scope", scopeJson(scope));
          return new ToolOutcome(ToolText.deletedAll(scope, count), json);
        });
  }

  private ToolDefinition history() {
    Map<String, Object> schema =
        object(props("memory_id", string("The memory's id.")), List.of("memory_id"));
    return new ToolDefinition(
        HISTORY,
        "Memory history",
        "Show how one memory changed over time: when it was added, each update with the old and new text, and "
            + "its deletion. Call it when the user asks what a memory used to say or why it changed. Returns the "
            + "changes, oldest first, each with the pipeline that made it (raw for a verbatim add, the extraction "
            + "pipeline's name, update or delete for a direct edit).",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          MemoryItem item = owned(memory, args);
          List<HistoryEntry> rows = memory.history(item.id());
          ObjectNode json = MemoryJson.mapper().createObjectNode();
          json.put("memory_id", item.id());
          json.set("results", MemoryJson.history(rows));
          return new ToolOutcome(ToolText.history(item.id(), rows), json);
        });
  }

  private ToolDefinition entityRelations() {
    Map<String, Object> schema =
        object(
            props(
                "entity",
                    string(
                        "The entity's name: a person, place, organisation or thing (e.g. 'Alice', 'Acme')."),
                "as_of", string("Relations as they held at this instant (ISO-8601); default now."),
                "include_invalidated", bool("true: include relations that no longer hold.")),
            List.of("entity"));
    return new ToolDefinition(
        ENTITY_RELATIONS,
        "Entity relations",
        "List the facts the graph memory holds about one entity: its direct relations to other entities, with "
            + "when each held. Call it for questions about a specific person, place or thing ('who does Alice "
            + "work with?'). Needs graph memory to be on; returns an empty list otherwise.",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          String entity = args.requiredString("entity");
          List<GraphRelation> relations = memory.entityRelations(scope, entity, timeView(args));
          return new ToolOutcome(
              ToolText.relations(scope, entity, relations), relationsJson(entity, relations));
        });
  }

  private ToolDefinition graphAround() {
    Map<String, Object> schema =
        object(
            props(
                "entity", string("The entity's name to start from."),
                "hops", integer("How far to walk from the entity (1 to 3, default 2).", 1, 3),
                "as_of", string("Relations as they held at this instant (ISO-8601); default now."),
                "include_invalidated", bool("true: include relations that no longer hold.")),
            List.of("entity"));
    return new ToolDefinition(
        GRAPH_AROUND,
        "Graph around an entity",
        "Explore the graph memory around an entity: its relations and those of its neighbours up to a few hops "
            + "away, nearest first. Call it for questions that connect entities ('how is Bob connected to "
            + "Acme?'). Needs graph memory to be on; returns an empty list otherwise.",
        schema,
        annotations(true, false, true),
        (memory, args, progress) -> {
          Scope scope = scope(args);
          String entity = args.requiredString("entity");
          int hops = args.integer("hops", 1, 3).orElse(2);
          List<GraphRelation> relations = memory.graphAround(scope, entity, hops, timeView(args));
          return new ToolOutcome(
              ToolText.relations(scope, entity, relations), relationsJson(entity, relations));
        });
  }

  // ---- argument helpers ----

  private Scope scope(ToolArguments args) {
    return defaults.resolve(args.string("user_id"), args.string("agent_id"), args.string("run_id"));
  }

  /**
   * The memory named by {@code memory_id} if it lies in the call's scope; else the same error as an
   * unknown id.
   */
  private MemoryItem owned(Memory memory, ToolArguments args) {
    Scope scope = scope(args);
    String id = args.requiredString("memory_id").trim();
    return memory
        .get(id)
        .filter(m -> scope.contains(m.userId(), m.agentId(), m.runId()))
        .orElseThrow(
            () ->
                new ValidationException(
                    "memory_id", "no memory with id '" + id + "' in " + scope.key()));
  }

  /**
   * Checks the request against the memory's limits before anything runs, so that a text over the
   * limit is refused naming the argument the caller gave: {@code text} when the message came from
   * it, else {@code messages[i].content}.
   */
  private static void checkLength(Memory memory, AddRequest request, boolean fromText) {
    try {
      memory.check(request);
    } catch (TextTooLongException e) {
      if (fromText) {
        throw new TextTooLongException("text", e.length(), e.limit());
      }
      throw e;
    }
  }

  private static List<Message> messagesOf(ToolArguments args) {
    Optional<Object> raw = args.raw("messages");
    Optional<String> text = args.string("text");
    if (raw.isPresent() == text.isPresent()) {
      throw new ValidationException(
          raw.isPresent() ? "messages" : "text",
          "give either text or messages (exactly one of them)");
    }
    if (text.isPresent()) {
      if (text.get().isBlank()) {
        throw new ValidationException("text", "must not be empty");
      }
      Message m = Message.user(text.get());
      return List.of(args.string("name").map(m::withName).orElse(m));
    }
    if (args.string("name").isPresent()) {
      throw new ValidationException("name", "applies to text only; give each message its own name");
    }
    if (!(raw.get() instanceof List<?>)) {
      throw new ValidationException(
          "messages",
          "must be an array of {role, content} objects, got " + ToolArguments.typeName(raw.get()));
    }
    JsonNode tree = MemoryJson.mapper().valueToTree(raw.get());
    return MessageJson.parseList("messages", tree);
  }

  private static Filter filter(ToolArguments args) {
    return args.object("filters").map(Mem0Filters::fromMap).orElse(Filter.all());
  }

  private static TimeView timeView(ToolArguments args) {
    boolean all = args.bool("include_invalidated").orElse(false);
    Optional<String> asOf = args.string("as_of");
    if (asOf.isPresent()) {
      if (all) {
        throw new ValidationException("as_of", "cannot be combined with include_invalidated=true");
      }
      return TimeView.asOf(JsonInput.instant("as_of", asOf.get()));
    }
    return all ? TimeView.ALL : TimeView.CURRENT;
  }

  private static MemoryUpdate change(ToolArguments args) {
    Optional<String> text = args.string("text");
    Optional<Map<String, Object>> metadata = args.object("metadata");
    Optional<String> expiration = args.string("expiration_date");
    if (text.isEmpty() && metadata.isEmpty() && expiration.isEmpty()) {
      throw new ValidationException(
          "text", "give text, metadata or expiration_date (at least one)");
    }
    if (text.isPresent() && text.get().isBlank()) {
      throw new ValidationException("text", "must not be empty");
    }
    MemoryUpdate change = text.map(MemoryUpdate::text).orElse(null);
    if (metadata.isPresent()) {
      change =
          change == null
              ? MemoryUpdate.metadata(metadata.get())
              : change.withMetadata(metadata.get());
    }
    if (expiration.isPresent()) {
      var date = JsonInput.date("expiration_date", expiration.get());
      change = change == null ? MemoryUpdate.expiration(date) : change.withExpiration(date);
    }
    return change;
  }

  private static ObjectNode relationsJson(String entity, List<GraphRelation> relations) {
    ObjectNode json = MemoryJson.mapper().createObjectNode();
    json.put("entity", entity);
    var array = json.putArray("relations");
    relations.forEach(r -> array.add(MemoryJson.relation(r)));
    return json;
  }

  static ObjectNode scopeJson(Scope scope) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    scope.userId().ifPresent(v -> o.put("user_id", v));
    scope.agentId().ifPresent(v -> o.put("agent_id", v));
    scope.runId().ifPresent(v -> o.put("run_id", v));
    return o;
  }

  private static ToolAnnotations annotations(
      boolean readOnly, boolean destructive, boolean idempotent) {
    return new ToolAnnotations(null, readOnly, destructive, idempotent, false, null);
  }

  /**
   * Where a tool call finds the memory it works on: fixed for stdio, the API key's tenant over
   * HTTP.
   */
  @FunctionalInterface
  interface MemorySource {
    Memory memory(McpSyncServerExchange exchange);
  }

  /** What a tool handler does with the caller's memory and its arguments. */
  @FunctionalInterface
  interface ToolHandler {
    ToolOutcome call(Memory memory, ToolArguments args, Progress progress);
  }

  /** A successful tool result: the text a model reads and the structured JSON object. */
  record ToolOutcome(String text, ObjectNode structured) {}

  /** One tool: its MCP description and its handler. */
  record ToolDefinition(
      String name,
      String title,
      String description,
      Map<String, Object> schema,
      ToolAnnotations annotations,
      ToolHandler handler) {

    Tool tool() {
      return Tool.builder(name, schema)
          .title(title)
          .description(description)
          .annotations(annotations)
          .build();
    }

    @SuppressWarnings("unchecked")
    Set<String> argumentNames() {
      return ((Map<String, Object>) schema.get("properties")).keySet();
    }

    CallToolResult call(
        MemorySource source, McpSyncServerExchange exchange, CallToolRequest request) {
      return ToolCalls.run(
          name,
          () -> {
            ToolArguments args = ToolArguments.of(request.arguments(), argumentNames());
            Memory memory = source.memory(exchange);
            return handler.call(memory, args, Progress.of(exchange, request));
          });
    }
  }
}
