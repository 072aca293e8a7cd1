package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.SearchRequest;
import dev.engram.graph.TimeView;
import dev.engram.server.http.Fields;
import java.time.Instant;
import java.util.Optional;

/**
 * A search body: {@code query} (required), {@code filters} (required, naming the scope; see {@link ScopedFilter}),
 * {@code top_k} (1..1000, default {@code defaultTopK}), {@code threshold} (0..1), {@code explain},
 * {@code show_expired}, and Engram's {@code as_of} (ISO-8601: relations that held then) and
 * {@code include_invalidated}. {@code rerank}, {@code fields}, {@code categories}, {@code keyword_search},
 * {@code latest_only} and {@code output_format} are accepted and ignored.
 */
public record SearchBody(SearchRequest request, TimeView relations) {

  public static SearchBody parse(JsonNode body, int defaultTopK, Optional<JsonNode> legacyScope) {
    String query = Fields.requiredText(body, "query");
    JsonNode filters = body.get("filters");
    if (legacyScope.isPresent()) {
      filters = legacyScope.get();
    }
    ScopedFilter scoped = ScopedFilter.parse("filters", filters);
    SearchRequest.Builder b = SearchRequest.builder(scoped.scope(), query).filter(scoped.filter())
        .topK(Fields.integer(body, "top_k", 1, SearchRequest.MAX_TOP_K)
            .or(() -> Fields.integer(body, "limit", 1, SearchRequest.MAX_TOP_K)).orElse(defaultTopK));
    Fields.number(body, "threshold", 0, 1).ifPresent(b::threshold);
    Fields.bool(body, "explain").ifPresent(b::explain);
    Fields.bool(body, "show_expired").ifPresent(b::includeExpired);
    Optional<Instant> asOf = Fields.instant(body, "as_of");
    boolean all = Fields.bool(body, "include_invalidated").orElse(false);
    TimeView view = asOf.map(TimeView::asOf).orElse(all ? TimeView.ALL : TimeView.CURRENT);
    if (asOf.isPresent() && all) {
      view = new TimeView(asOf.get(), true);
    }
    return new SearchBody(b.build(), view);
  }
}
