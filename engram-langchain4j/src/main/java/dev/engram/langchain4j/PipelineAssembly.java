package dev.engram.langchain4j;

import dev.engram.Engram;
import dev.engram.ValidationException;
import dev.engram.extract.OfflineExtractor;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.langchain4j.EngramSettings.PipelineMode;
import dev.engram.pipeline.AdditiveInference;
import dev.engram.pipeline.ConsolidatingInference;
import dev.engram.pipeline.LlmGraphExtractor;
import dev.engram.pipeline.LlmSummarizer;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.PipelineOptions;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.Embedder;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.MemoryInference;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns {@link EngramSettings} into the engine's parts: the embedder, the add pipeline ({@code
 * offline}, {@code consolidate} or {@code additive}), the graph extractor when {@code
 * pipeline.graph} is on, and, with a language model, the rolling-summary keeper, and the reranker
 * of the {@code reranker} section. Storage is left to the caller.
 */
public final class PipelineAssembly {
  /** Most tokens of a summary refresh answer. */
  static final int SUMMARY_TOKENS = 400;

  /** Most tokens of a graph extraction or conflict answer. */
  static final int GRAPH_TOKENS = 1500;

  /**
   * Retries of the LLM reranker, which a search waits for: two attempts a quarter second apart at
   * most, and one more for an unusable answer.
   */
  static final RetryPolicy RERANK_RETRY =
      new RetryPolicy(2, Duration.ofMillis(250), Duration.ofSeconds(1), 2);

  private PipelineAssembly() {}

  /**
   * Sets the inference and summarizer of {@code builder} from settings (the embedder is the
   * caller's: see {@link #embedder}, whose dimension the storage needs first).
   *
   * @param env the environment (API keys are read from it, never logged)
   * @throws ValidationException if the pipeline needs a language model that is not configured
   */
  public static Engram.Builder configure(
      Engram.Builder builder, EngramSettings settings, Map<String, String> env) {
    Objects.requireNonNull(builder, "builder");
    PipelineMode mode = settings.pipeline().mode();
    if (settings.reranker().isPresent()) {
      Optional<ModelCaller> llm =
          settings.llm().map(l -> new ModelCaller(Providers.languageModel(l, env), RERANK_RETRY));
      builder.reranker(Providers.reranker(settings.reranker().get(), llm, env));
    }
    builder
        .graphEntityThreshold(settings.pipeline().graphEntityThreshold())
        .graphAmbiguityFloor(settings.pipeline().graphAmbiguityFloor())
        .sourceContext(settings.pipeline().sourceContext())
        .contextEmbeddings(settings.pipeline().contextEmbeddings());
    if (mode == PipelineMode.OFFLINE) {
      if (settings.pipeline().graph()) {
        builder.graph(OfflineGraphExtractor.create());
      }
      return builder.inference(OfflineExtractor.create());
    }
    ModelCaller caller = caller(settings, env);
    if (settings.pipeline().graph()) {
      builder.graph(new LlmGraphExtractor(caller, GRAPH_TOKENS));
    }
    PipelineOptions options = options(settings.pipeline());
    MemoryInference inference =
        mode == PipelineMode.CONSOLIDATE
            ? new ConsolidatingInference(caller, options)
            : new AdditiveInference(caller, options);
    return builder.inference(inference).summarizer(new LlmSummarizer(caller, SUMMARY_TOKENS));
  }

  /** The embedder the settings name. */
  public static Embedder embedder(EngramSettings settings, Map<String, String> env) {
    return Providers.embedder(settings.embedder(), env);
  }

  /** The language model with the pipeline's retry policy. */
  public static ModelCaller caller(EngramSettings settings, Map<String, String> env) {
    EngramSettings.Llm llm =
        settings
            .llm()
            .orElseThrow(
                () ->
                    new ValidationException(
                        "pipeline.mode",
                        "'"
                            + settings.pipeline().mode().name().toLowerCase(java.util.Locale.ROOT)
                            + "' needs a language model: add an llm section to engram.yaml or set ENGRAM_LLM_PROVIDER"));
    LanguageModel model = Providers.languageModel(llm, env);
    RetryPolicy retry =
        new RetryPolicy(
            settings.pipeline().maxAttempts(), Duration.ofMillis(500), Duration.ofSeconds(8), 2);
    return new ModelCaller(model, retry);
  }

  static PipelineOptions options(EngramSettings.Pipeline p) {
    String prompt = "";
    if (p.extractionPromptFile().isPresent()) {
      try {
        prompt = Files.readString(p.extractionPromptFile().get());
      } catch (IOException e) {
        throw new ValidationException(
            "pipeline.extraction_prompt_file",
            "cannot read " + p.extractionPromptFile().get() + ": " + e.getMessage());
      }
    }
    return PipelineOptions.builder()
        .recentMessages(p.recentMessages())
        .similarMemories(p.similarMemories())
        .customInstructions(p.customInstructions().orElse(""))
        .extractionPrompt(prompt)
        .build();
  }
}
