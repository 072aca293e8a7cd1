package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.langchain4j.PipelineAssembly;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engram search --ranking: the named ranking steps reach the search (the hits are the library's for
 * the same request on the same data directory), no option means the library's default, and a bad
 * spec is a parameter error naming the option. Runs the default in-process embedder (bge-small).
 */
class SearchRankingCommandTest {
  private static final String QUERY = "Where did Alice go hiking in August 2023?";

  @TempDir Path dir;

  @Test
  void rankingChoosesTheStepsTheLibraryRunsAndABadSpecIsRefused() {
    Cli cli = new Cli(dir.resolve("data"));
    String may =
        cli.addVerbatim(
            "alice", "Alice went hiking in the hills", "--timestamp", "2023-05-20T09:00:00Z");
    String august =
        cli.addVerbatim(
            "alice",
            "Alice went hiking in the hills with Bob",
            "--timestamp",
            "2023-08-12T09:00:00Z");

    List<String> specs = List.of("none", "dates", "default", "default,diversity", "all");
    Map<String, List<String>> viaCli = new java.util.LinkedHashMap<>();
    for (String spec : specs) {
      viaCli.put(spec, ids(cli, "--ranking", spec));
    }
    List<String> withoutOption = ids(cli);

    // the steps decide here, so a ranking lost on the way would show
    assertThat(viaCli.get("none")).containsExactly(may);
    assertThat(viaCli.get("dates")).containsExactly(august);
    assertThat(withoutOption).isEqualTo(viaCli.get("default"));

    EngramSettings settings = EngramSettings.defaults();
    try (Memory memory =
        PipelineAssembly.configure(
                Engram.builder()
                    .embedder(PipelineAssembly.embedder(settings, Map.of()))
                    .storage(EmbeddedStorage.open(dir.resolve("data"), 384)),
                settings,
                Map.of())
            .build()) {
      for (String spec : specs) {
        assertThat(viaCli.get(spec))
            .as(spec)
            .isEqualTo(
                memory
                    .search(
                        SearchRequest.builder(Scope.user("alice"), QUERY)
                            .topK(1)
                            .ranking(Ranking.parse(spec, "ranking"))
                            .build())
                    .hits()
                    .stream()
                    .map(h -> h.memory().id())
                    .toList());
      }
      assertThat(withoutOption)
          .isEqualTo(
              memory
                  .search(SearchRequest.builder(Scope.user("alice"), QUERY).topK(1).build())
                  .hits()
                  .stream()
                  .map(h -> h.memory().id())
                  .toList());
    }

    Cli.Result bad = cli.run("search", "--user-id", "alice", "--ranking", "dates,magic", QUERY);
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("--ranking").contains("unknown ranking step 'magic'");
    assertThat(bad.out()).isEmpty();
  }

  private static List<String> ids(Cli cli, String... options) {
    List<String> args =
        new java.util.ArrayList<>(List.of("--user-id", "alice", "--json", "--top-k", "1"));
    args.addAll(List.of(options));
    args.add(QUERY);
    Cli.Result r = cli.run("search", args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r.json().get("results").findValuesAsText("id");
  }
}
