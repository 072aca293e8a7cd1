package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Ranking;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.ValidationException;
import dev.engram.graph.TimeView;
import dev.engram.json.MemoryJson;
import dev.engram.server.http.Call;
import dev.engram.server.http.Fields;
import dev.engram.server.http.ServerMetrics;
import java.time.Instant;
import java.util.Optional;

/**
 * A search body: {@code query} (required), {@code filters} (required, naming the scope; see {@link
 * ScopedFilter}), {@code top_k} (1..1000, default {@code defaultTopK}, or 1000 with {@code
 * max_tokens}), {@code threshold} (0..1, default {@link SearchRequest#DEFAULT_THRESHOLD}), Engram's
 * {@code max_tokens} (a context budget: the best memories that fit, see {@link
 * SearchRequest.Builder#maxTokens}), {@code explain}, {@code show_expired}, {@code rerank} (default
 * false: rerank with the server's reranker, when one is configured), Engram's {@code ranking} (the
 * ranking steps after fusion as {@link Ranking#parse} reads them, e.g. {@code "default,diversity"}
 * or {@code "none"}; default {@link Ranking#DEFAULT}), and Engram's {@code as_of} (ISO-8601:
 * relations that held then) and {@code include_invalidated}. {@code fields}, {@code categories},
 * {@code keyword_search}, {@code latest_only} and {@code output_format} are accepted and ignored.
 */
public record SearchBody(SearchRequest request, TimeView relations) {

  /** Parses a body whose scope ids stand inside {@code filters} (mem0's current form). */
  public static SearchBody parse(JsonNode body, int defaultTopK) {
    return parse(body, defaultTopK, body.get("filters"));
  }

  /**
   * Parses a body of the older form, whose scope ids ({@code user_id}, {@code agent_id}, {@code
   * run_id}) may stand at the top level beside {@code filters}; they are merged into the filters.
   */
  public static SearchBody parseWithTopLevelScope(JsonNode body, int defaultTopK) {
    ObjectNode filters = MemoryJson.mapper().createObjectNode();
    for (String k : new String[] {"user_id", "agent_id", "run_id", "app_id"}) {
      Fields.text(body, k).ifPresent(v -> filters.put(k, v));
    }
    Fields.node(body, "filters")
        .ifPresent(
            f -> {
              if (!f.isObject()) {
                throw new ValidationException("filters", "must be a JSON object");
              }
              filters.setAll((ObjectNode) f);
            });
    return parse(body, defaultTopK, filters);
  }

  private static SearchBody parse(JsonNode body, int defaultTopK, JsonNode filters) {
    String query = Fields.requiredText(body, "query");
    ScopedFilter scoped = ScopedFilter.parse("filters", filters);
    SearchRequest.Builder b = SearchRequest.builder(scoped.scope(), query).filter(scoped.filter());
    Optional<Integer> maxTokens = Fields.integer(body, "max_tokens", 1, SearchRequest.MAX_TOKENS);
    maxTokens.ifPresent(b::maxTokens);
    Optional<Integer> topK =
        Fields.integer(body, "top_k", 1, SearchRequest.MAX_TOP_K)
            .or(() -> Fields.integer(body, "limit", 1, SearchRequest.MAX_TOP_K));
    if (topK.isPresent() || maxTokens.isEmpty()) {
      b.topK(topK.orElse(defaultTopK));
    }
    Fields.number(body, "threshold", 0, 1).ifPresent(b::threshold);
    Fields.bool(body, "explain").ifPresent(b::explain);
    Fields.bool(body, "show_expired").ifPresent(b::includeExpired);
    Fields.bool(body, "rerank").ifPresent(b::rerank);
    Fields.text(body, "ranking").ifPresent(spec -> b.ranking(Ranking.parse(spec, "ranking")));
    Optional<Instant> asOf = Fields.instant(body, "as_of");
    boolean all = Fields.bool(body, "include_invalidated").orElse(false);
    TimeView view =
        asOf.map(t -> new TimeView(t, all)).orElse(all ? TimeView.ALL : TimeView.CURRENT);
    return new SearchBody(b.build(), view);
  }

  /** Runs the search in the caller's tenant and records its latency. */
  public SearchResult run(Call c, ServerMetrics metrics) {
    long start = System.nanoTime();
    SearchResult r = c.memory().search(request, relations);
    metrics.search(System.nanoTime() - start);
    return r;
  }
}
