package dev.engram.bench.pipeline;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.bench.Percentiles;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoReader;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.pipeline.AdditiveInference;
import dev.engram.pipeline.ConsolidatingInference;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.PipelineOptions;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryInference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the LLM pipeline costs per add, without an LLM: LoCoMo conversations are added two turns at
 * a time (as the Mem0 paper's harness did) through the consolidating or the additive pipeline,
 * answered by {@link ObservationScriptedModel}. Reports LLM calls, prompt and completion tokens per
 * add, and the engine's own time per add (the scripted model answers instantly, so this is
 * everything but the model).
 */
public final class PipelineCostBench {
  private PipelineCostBench() {}

  /** Pipeline modes measured. */
  public enum Mode {
    CONSOLIDATE,
    ADDITIVE
  }

  /**
   * Figures of one run.
   *
   * @param mode the pipeline
   * @param adds adds made
   * @param callsPerAdd LLM calls per add
   * @param promptTokensPerAdd cl100k prompt tokens per add
   * @param completionTokensPerAdd cl100k completion tokens per add
   * @param memories memories stored at the end
   * @param engineMsP50 engine time per add, median (ms)
   * @param engineMsP95 engine time per add, 95th percentile (ms)
   */
  public record Result(
      Mode mode,
      int adds,
      double callsPerAdd,
      double promptTokensPerAdd,
      double completionTokensPerAdd,
      long memories,
      double engineMsP50,
      double engineMsP95) {
    public String toMarkdownRow() {
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.2f | %.0f | %.0f | %d | %.2f | %.2f |",
          mode.name().toLowerCase(Locale.ROOT),
          adds,
          callsPerAdd,
          promptTokensPerAdd,
          completionTokensPerAdd,
          memories,
          engineMsP50,
          engineMsP95);
    }
  }

  public static Result run(Path data, int conversations, Mode mode, Embedder embedder, Path workDir)
      throws java.io.IOException {
    List<Conversation> all = LocomoReader.read(data);
    List<Conversation> convs =
        conversations > 0 ? all.subList(0, Math.min(conversations, all.size())) : all;
    int adds = 0;
    long calls = 0;
    long prompt = 0;
    long completion = 0;
    long memories = 0;
    List<Double> engineMs = new ArrayList<>();
    for (Conversation c : convs) {
      ObservationScriptedModel model = new ObservationScriptedModel(c);
      ModelCaller caller = new ModelCaller(model, RetryPolicy.none());
      MemoryInference inference =
          mode == Mode.CONSOLIDATE
              ? new ConsolidatingInference(caller, PipelineOptions.defaults())
              : new AdditiveInference(caller, PipelineOptions.defaults());
      Path dir = Files.createTempDirectory(workDir, "pipeline-cost");
      try (Memory memory =
          Engram.builder()
              .storage(EmbeddedStorage.at(dir))
              .embedder(embedder)
              .inference(inference)
              .build()) {
        Scope scope = Scope.user(c.sampleId());
        for (Session s : c.sessions()) {
          List<Turn> turns = s.turns();
          for (int i = 0; i < turns.size(); i += 2) {
            AddRequest.Builder b = AddRequest.builder(scope).timestamp(s.dateTime());
            for (Turn t : turns.subList(i, Math.min(turns.size(), i + 2))) {
              b.message(
                  new Message(
                      Role.USER,
                      t.text().isBlank() ? "(an image)" : t.text(),
                      t.speaker(),
                      null,
                      t.diaId()));
            }
            long t0 = System.nanoTime();
            AddResult r = memory.add(b.build());
            engineMs.add((System.nanoTime() - t0) / 1e6 - r.usage().llmTime().toNanos() / 1e6);
            adds++;
          }
        }
        memories += memory.list(dev.engram.ListRequest.of(scope)).total();
      }
      calls += model.calls();
      prompt += model.promptTokens();
      completion += model.completionTokens();
    }
    Percentiles p = new Percentiles(engineMs.stream().mapToDouble(Double::doubleValue).toArray());
    return new Result(
        mode,
        adds,
        (double) calls / adds,
        (double) prompt / adds,
        (double) completion / adds,
        memories,
        p.at(50),
        p.at(95));
  }
}
