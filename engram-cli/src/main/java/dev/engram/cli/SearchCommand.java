package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.filter.Mem0Filters;
import dev.engram.json.MemoryJson;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code engram search}: hybrid search inside a scope. */
@Command(name = "search", description = "Search a scope's memories (dense + BM25, fused).")
final class SearchCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Parameters(index = "0", paramLabel = "QUERY", description = "What to look for.")
  String query;

  @Option(
      names = "--top-k",
      paramLabel = "N",
      description =
          "How many results at most (default: "
              + SearchRequest.DEFAULT_TOP_K
              + ", or "
              + SearchRequest.MAX_TOP_K
              + " with --max-tokens).")
  Integer topK;

  @Option(
      names = "--max-tokens",
      paramLabel = "N",
      description =
          "A context budget in tokens (OpenAI's cl100k_base, counted exactly): the best memories that"
              + " fit into it.")
  Integer maxTokens;

  @Option(
      names = "--threshold",
      paramLabel = "SCORE",
      defaultValue = "" + SearchRequest.DEFAULT_THRESHOLD,
      description = "Minimum relevance score in [0,1] (default: ${DEFAULT-VALUE}).")
  double threshold;

  @Option(
      names = "--filter",
      paramLabel = "JSON",
      description =
          "mem0 filter, e.g. '{\"topic\": \"travel\"}' or '{\"created_at\": {\"gte\": \"2024-01-01\"}}';"
              + " top-level user_id/agent_id/run_id give the scope.")
  String filter;

  @Option(names = "--explain", description = "Show each signal's score.")
  boolean explain;

  @Option(names = "--include-expired", description = "Include expired memories.")
  boolean includeExpired;

  @Option(
      names = "--rerank",
      description =
          "Rerank the hits with the reranker of engram.yaml (reranker section);"
              + " without one the fused order is kept.")
  boolean rerank;

  @Option(
      names = "--ranking",
      paramLabel = "SPEC",
      defaultValue = "default",
      converter = Converters.RankingConverter.class,
      description =
          "The ranking steps after fusion,"
              + " comma-separated: neighbours, dates, feedback, context, diversity, hubs, names, passages, facts, instructions; or none, all, default"
              + " (default: ${DEFAULT-VALUE}, the library's default steps).")
  Ranking ranking;

  @Override
  protected int run() {
    Mem0Filters.Parsed parsed = Mem0Filters.parseWithScope(filter);
    SearchRequest.Builder b =
        SearchRequest.builder(scope.mergedWith(parsed.scope(), "filter"), query)
            .filter(parsed.filter())
            .threshold(threshold)
            .explain(explain)
            .includeExpired(includeExpired)
            .rerank(rerank)
            .ranking(ranking);
    if (topK != null) {
      b.topK(topK);
    }
    if (maxTokens != null) {
      b.maxTokens(maxTokens);
    }
    SearchRequest request = b.build();
    SearchResult result;
    try (Memory memory = openMemory(false)) {
      result = memory.search(request);
    }
    if (json()) {
      printJson(MemoryJson.searchResult(result));
      return EXIT_OK;
    }
    List<SearchHit> hits = result.hits();
    if (hits.isEmpty()) {
      out().println("no memories found");
    }
    for (int i = 0; i < hits.size(); i++) {
      out().println(Text.hit(i + 1, hits.get(i)));
      if (hits.get(i).details() != null) {
        out().println(Text.details(hits.get(i).details()));
      }
    }
    return EXIT_OK;
  }
}
