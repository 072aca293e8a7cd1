package dev.engram.cli;

import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.Ranking;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.LocomoBench;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.bench.locomo.LocomoChart;
import dev.engram.bench.locomo.LocomoReport;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.langchain4j.PipelineAssembly;
import dev.engram.pipeline.LlmGraphExtractor;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code engram bench}: benchmarks of memory quality, speed and cost. */
@Command(
    name = "bench",
    description = "Benchmarks of memory quality, speed and cost.",
    subcommands = {
      BenchCommand.Locomo.class,
      CalibrateBenchCommand.class,
      PipelineBenchCommand.class,
      ScaleBenchCommand.class,
      ServerBenchCommand.class
    })
final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Without a benchmark: prints the usage on stderr and exits with 2. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("engram bench: missing benchmark");
    spec.commandLine().usage(spec.commandLine().getErr());
    return BaseCommand.EXIT_BAD_INPUT;
  }

  /**
   * {@code engram bench locomo}: the LoCoMo retrieval benchmark with its baselines: plain cosine
   * and BM25 over the turns, RAG and full context ({@link LocomoBench}). Prints a Markdown table
   * (or the JSON report with {@code --json}); with {@code --out} also writes the JSON report there
   * and, next to it, the Markdown ({@code .md}) and the chart ({@code .svg}). The stores are
   * temporary: under {@code --data-dir} if given, else in a temporary directory, each deleted after
   * its conversation.
   */
  @Command(
      name = "locomo",
      description =
          "LoCoMo retrieval benchmark: evidence recall, hit, answer-token recall,"
              + " context tokens, latency, with per-turn (plain cosine, BM25), RAG and"
              + " full-context baselines.")
  static final class Locomo extends BaseCommand {
    /** Most tokens of a graph extraction or conflict answer with {@code --mode llm --graph}. */
    static final int GRAPH_TOKENS = 1500;

    @Option(
        names = "--data",
        required = true,
        paramLabel = "FILE",
        description = "A file in LoCoMo's format.")
    Path data;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        defaultValue = "raw",
        description = "raw, observations, extract or llm (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(
        names = "--scopes",
        paramLabel = "LAYOUT",
        defaultValue = "conversation",
        description =
            "conversation (one scope, speakers as actors) or speaker (one scope per speaker, as the Mem0"
                + " paper's harness) (default: ${DEFAULT-VALUE}).")
    String scopes;

    @Option(
        names = "--top-k",
        paramLabel = "K",
        defaultValue = "10",
        description = "Results per question" + " (default: ${DEFAULT-VALUE}).")
    int topK;

    @Option(
        names = "--fusion",
        paramLabel = "FUSION",
        description =
            "cosine, rrf or weighted (default: cosine; rrf with --context-embeddings, whose list"
                + " joins the fusion by reciprocal ranks).")
    String fusion;

    @Option(
        names = "--conversations",
        paramLabel = "N",
        defaultValue = "0",
        description = "Use the first N conversations (default: all).")
    int conversations;

    @Option(
        names = "--turns-per-add",
        paramLabel = "N",
        defaultValue = "0",
        description =
            "Consecutive turns per add (default: 1 for raw, a session for observations, 2 for extract"
                + " and llm).")
    int turnsPerAdd;

    @Option(
        names = "--speaker-prefix",
        description = "Raw mode only: store each turn as '<speaker>: <text>'.")
    boolean speakerPrefix;

    @Option(
        names = "--budget-tokens",
        paramLabel = "N",
        defaultValue = "0",
        description =
            "A context budget per"
                + " question in tokens (cl100k, counted exactly): the best memories that fit, instead of the top-k (default:"
                + " none).")
    int budgetTokens;

    @Option(
        names = "--threshold",
        paramLabel = "SCORE",
        defaultValue = "-1",
        description =
            "The search threshold" + " (relevance in [0, 1]; default: the library's default).")
    double threshold;

    @Option(
        names = "--ranking",
        paramLabel = "STEPS",
        defaultValue = "default",
        description =
            "The ranking steps"
                + " after fusion, comma-separated: neighbours, dates, feedback, context, diversity, hubs, names, passages, facts, instructions; or none, all,"
                + " default (the library's default steps).")
    String ranking;

    @Option(
        names = "--off-topic",
        description =
            "Also ask each conversation's store the next conversation's"
                + " questions and report the share that return nothing (offtopic_empty, and offtopic_empty@T over a grid of"
                + " thresholds).")
    boolean offTopic;

    @Option(
        names = "--context-embeddings",
        description =
            "Embed each memory's source context too (slower"
                + " ingest), which the ranking's context step then searches beside its keywords.")
    boolean contextEmbeddings;

    @Option(
        names = "--no-baselines",
        description = "Skip the baselines (per turn, RAG and full context).")
    boolean noBaselines;

    @Option(
        names = "--no-rag-baselines",
        description =
            "Keep only the cheap per-turn baselines (plain cosine and BM25 over the turns, at"
                + " top-10 and within 500 and 1,500 tokens): no RAG chunking, no full context.")
    boolean noRagBaselines;

    @Option(
        names = "--graph",
        description =
            "Turn the graph memory on: the offline graph extractor (raw,"
                + " observations, extract) or the LLM one (llm); relations returned by search count as retrieved evidence"
                + " and context.")
    boolean graph;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description =
            "Write the JSON report here, and the Markdown" + " (.md) and chart (.svg) next to it.")
    Path out;

    @Option(
        names = "--answer-model",
        paramLabel = "PROVIDER:MODEL",
        description =
            "Answer every question from"
                + " its hits with this model (e.g. openai:gpt-4o-mini; keys from the environment) and report J, F1, BLEU-1.")
    String answerModel;

    @Option(
        names = "--judge-model",
        paramLabel = "PROVIDER:MODEL",
        description = "The LLM judge (default: the" + " answer model).")
    String judgeModel;

    @Option(
        names = "--judge-runs",
        paramLabel = "R",
        defaultValue = "1",
        description =
            "Judge runs per answer; J"
                + " is reported per run (j_run_*) and averaged (default: ${DEFAULT-VALUE}; the paper used 10).")
    int judgeRuns;

    @Option(
        names = "--answer-threads",
        paramLabel = "N",
        defaultValue = "4",
        description = "Questions answered at" + " once (default: ${DEFAULT-VALUE}).")
    int answerThreads;

    @Option(
        names = "--cache",
        paramLabel = "FILE",
        defaultValue = "locomo-llm-cache.jsonl",
        description =
            "Model"
                + " responses are cached here, so reruns cost nothing (default: ${DEFAULT-VALUE}).")
    Path cache;

    @Option(
        names = "--compare",
        paramLabel = "REPORT",
        description =
            "An earlier JSON report whose run is drawn in" + " the chart too (repeatable).")
    List<Path> compare = new ArrayList<>();

    @Override
    protected int run() throws IOException {
      Mode m = choice(Mode.class, "mode", mode);
      List<LocomoReport> earlier = compare.stream().map(LocomoReport::readJson).toList();
      EngramSettings settings = settings();
      Map<String, String> env = System.getenv();
      // In the llm mode, engram.yaml's pipeline.graph turns the graph on as well (PipelineAssembly
      // sets it).
      boolean graphOn = graph || (m == Mode.LLM && settings.pipeline().graph());
      UnaryOperator<Engram.Builder> llm =
          m == Mode.LLM ? llmSetup(settings, env, graphOn) : UnaryOperator.identity();
      Embedder embedder = PipelineAssembly.embedder(settings, env);
      LocomoReport report;
      try (WorkDirectory work =
          WorkDirectory.keptOrTemporary(common.explicitDataDir(), "engram-bench-")) {
        Files.createDirectories(work.path());
        LocomoBench.Options.Builder chosen =
            LocomoBench.Options.builder(data, m, work.path())
                .scopes(choice(ScopeLayout.class, "scopes", scopes))
                .topK(topK)
                .conversations(conversations)
                .turnsPerAdd(turnsPerAdd)
                .speakerPrefix(speakerPrefix)
                .baselines(!noBaselines)
                .ragBaselines(!noRagBaselines)
                .graph(graphOn)
                .budgetTokens(budgetTokens)
                .threshold(threshold < 0 ? SearchRequest.DEFAULT_THRESHOLD : threshold)
                .offTopic(offTopic)
                .ranking(Ranking.parse(ranking, "ranking"))
                .contextEmbeddings(contextEmbeddings);
        if (fusion != null) {
          chosen.fusion(choice(Fusion.class, "fusion", fusion));
        }
        LocomoBench.Options o = chosen.build();
        try (Progress progress =
                Progress.start("locomo " + m.label(), LocomoBench.progressTotal(o), "step", err());
            AnswerMetricsSetup answers =
                AnswerMetricsSetup.open(
                    answerModel, judgeModel, judgeRuns, answerThreads, cache, env)) {
          report =
              LocomoBench.runConfigured(
                  o,
                  embedder,
                  llm,
                  LocomoBench.Hooks.progress(progress::stepBy).withObserver(answers.observer()));
        }
      }
      write(report, earlier);
      return EXIT_OK;
    }

    private void write(LocomoReport report, List<LocomoReport> earlier) throws IOException {
      if (out != null) {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        report.writeJson(out);
        Files.writeString(sibling(out, ".md"), report.toMarkdown(), StandardCharsets.UTF_8);
        List<LocomoReport> runs = new ArrayList<>(earlier);
        runs.add(report);
        Files.writeString(sibling(out, ".svg"), LocomoChart.svg(runs), StandardCharsets.UTF_8);
      }
      out().print(json() ? report.toJson() + System.lineSeparator() : report.toMarkdown());
    }

    /** The same file name with another extension: {@code report.json} gives {@code report.md}. */
    static Path sibling(Path file, String extension) {
      String name = file.getFileName().toString();
      String base =
          name.toLowerCase(Locale.ROOT).endsWith(".json")
              ? name.substring(0, name.length() - 5)
              : name;
      return file.resolveSibling(base + extension);
    }

    /**
     * The LLM pipeline from the settings, checked before any work starts; with {@code graph}, also
     * the LLM graph extractor over the same model.
     */
    private static UnaryOperator<Engram.Builder> llmSetup(
        EngramSettings settings, Map<String, String> env, boolean graph) {
      if (settings.llm().isEmpty()) {
        throw new ValidationException(
            "mode",
            "llm needs a language model and none is configured: add an llm"
                + " section to engram.yaml (or name a file with ENGRAM_CONFIG) or set ENGRAM_LLM_PROVIDER");
      }
      if (settings.pipeline().mode() == EngramSettings.PipelineMode.OFFLINE) {
        throw new ValidationException(
            "pipeline.mode", "is offline; --mode llm needs consolidate or additive");
      }
      PipelineAssembly.configure(Engram.builder(), settings, env);
      if (!graph) {
        return b -> PipelineAssembly.configure(b, settings, env);
      }
      return b ->
          PipelineAssembly.configure(b, settings, env)
              .graph(new LlmGraphExtractor(PipelineAssembly.caller(settings, env), GRAPH_TOKENS));
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String field, String value) {
      List<String> names = new ArrayList<>();
      for (E e : type.getEnumConstants()) {
        String name = e.name().toLowerCase(Locale.ROOT);
        if (name.equals(value.trim().toLowerCase(Locale.ROOT))) {
          return e;
        }
        names.add(name);
      }
      throw new ValidationException(
          field,
          "unknown value '" + value + "' (expected one of " + String.join(", ", names) + ")");
    }
  }
}
