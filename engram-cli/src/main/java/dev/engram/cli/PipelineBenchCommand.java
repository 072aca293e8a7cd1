package dev.engram.cli;

import dev.engram.bench.pipeline.PipelineCostBench;
import dev.engram.langchain4j.PipelineAssembly;
import dev.engram.spi.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram bench pipeline}: what the LLM pipeline costs per add without an LLM ({@link
 * PipelineCostBench}): LoCoMo conversations added two turns at a time through the consolidating and
 * the additive pipelines, answered by a scripted model that replays LoCoMo's observations; prints
 * LLM calls, cl100k prompt and completion tokens per add, and the engine's own time per add.
 */
@Command(
    name = "pipeline",
    description =
        "LLM calls, prompt tokens and engine time per add in the consolidate and"
            + " additive pipelines, with a scripted model replaying LoCoMo's observations (no LLM needed).")
final class PipelineBenchCommand extends BaseCommand {
  @Option(
      names = "--data",
      required = true,
      paramLabel = "FILE",
      description = "A file in LoCoMo's format.")
  Path data;

  @Option(
      names = "--conversations",
      paramLabel = "N",
      defaultValue = "0",
      description = "Use the first N conversations (default: all).")
  int conversations;

  @Override
  protected int run() throws Exception {
    if (!Files.isRegularFile(data)) {
      throw new dev.engram.ValidationException("data", "no such file: " + data);
    }
    Embedder embedder = PipelineAssembly.embedder(settings(), System.getenv());
    out()
        .println(
            "| mode | adds | LLM calls/add | prompt tokens/add | completion tokens/add | memories"
                + " | engine ms/add p50 | p95 |");
    out().println("|---|---|---|---|---|---|---|---|");
    try (WorkDirectory work = WorkDirectory.temporary("engram-pipeline-bench-")) {
      for (PipelineCostBench.Mode mode : PipelineCostBench.Mode.values()) {
        out()
            .println(
                PipelineCostBench.run(data, conversations, mode, embedder, work.path())
                    .toMarkdownRow());
        out().flush();
      }
    }
    return EXIT_OK;
  }
}
