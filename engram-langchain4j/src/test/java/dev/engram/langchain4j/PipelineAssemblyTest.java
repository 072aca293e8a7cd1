package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.ValidationException;
import dev.engram.extract.OfflineExtractor;
import dev.engram.pipeline.AdditiveInference;
import dev.engram.pipeline.ConsolidatingInference;
import dev.engram.pipeline.LlmSummarizer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineAssemblyTest {
  private static final Map<String, String> ENV = Map.of("OPENAI_API_KEY", "sk-test");

  private static Engram.Builder assemble(String yaml) {
    EngramSettings s = SettingsLoader.parse(yaml, "test.yaml", Path.of("."), ENV);
    return PipelineAssembly.configure(Engram.builder(), s, ENV);
  }

  @Test
  void withoutAModelTheOfflineExtractorIsUsed() {
    var b = assemble("");
    // config() needs storage and embedder; check the parts through a minimal fake storage-free
    // route
    assertThat(inference(b)).isInstanceOf(OfflineExtractor.class);
  }

  @Test
  void consolidateAndAdditiveUseTheConfiguredModelWithASummarizer() {
    var consolidate =
        assemble("llm: {provider: openai, model: gpt-4o-mini}\npipeline: {mode: consolidate}");
    assertThat(inference(consolidate)).isInstanceOf(ConsolidatingInference.class);
    assertThat(optionalField(consolidate, "summarizer")).containsInstanceOf(LlmSummarizer.class);
    var additive =
        assemble("llm: {provider: openai, model: gpt-4o-mini}\npipeline: {mode: additive}");
    assertThat(inference(additive)).isInstanceOf(AdditiveInference.class);
  }

  @Test
  void theGraphIsOffByDefaultAndOnWithTheExtractorThatFitsTheModel() {
    assertThat(optionalField(assemble(""), "graphExtractor")).isEmpty();
    assertThat(optionalField(assemble("pipeline: {graph: true}"), "graphExtractor"))
        .containsInstanceOf(dev.engram.extract.OfflineGraphExtractor.class);
    assertThat(
            optionalField(
                assemble("llm: {provider: openai}\npipeline: {graph: true}"), "graphExtractor"))
        .containsInstanceOf(dev.engram.pipeline.LlmGraphExtractor.class);
    assertThatThrownBy(() -> assemble("pipeline: {graph: maybe}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pipeline.graph: must be true or false");
  }

  @Test
  void entityResolutionThresholdsComeFromThePipelineSection() {
    var defaults = assemble("pipeline: {graph: true}");
    assertThat(field(defaults, "graphEntityThreshold")).isEqualTo(0.9);
    assertThat(field(defaults, "graphAmbiguityFloor")).isEqualTo(0.75);
    var tuned =
        assemble(
            "pipeline: {graph: true, graph_entity_threshold: 0.95, graph_ambiguity_floor: 0.8}");
    assertThat(field(tuned, "graphEntityThreshold")).isEqualTo(0.95);
    assertThat(field(tuned, "graphAmbiguityFloor")).isEqualTo(0.8);
    assertThatThrownBy(() -> assemble("pipeline: {graph_entity_threshold: 1.5}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pipeline.graph_entity_threshold: expected a number in [0.01, 1.0]");
    assertThatThrownBy(() -> assemble("pipeline: {graph_ambiguity_floor: high}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pipeline.graph_ambiguity_floor: expected a number in [0.01, 1.0]");
  }

  @Test
  void sourceContextsAreKeptAndNotEmbeddedByDefaultAndBothComeFromThePipelineSection() {
    assertThat(field(assemble(""), "sourceContext")).isEqualTo(true);
    assertThat(field(assemble(""), "contextEmbeddings")).isEqualTo(false);
    assertThat(field(assemble("pipeline: {context_embeddings: true}"), "contextEmbeddings"))
        .isEqualTo(true);
    assertThat(field(assemble("pipeline: {source_context: false}"), "sourceContext"))
        .isEqualTo(false);
    assertThatThrownBy(() -> assemble("pipeline: {context_embeddings: sometimes}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pipeline.context_embeddings: must be true or false");
  }

  @Test
  void aModelPipelineWithoutAModelIsRejected() {
    assertThatThrownBy(() -> assemble("pipeline: {mode: consolidate}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'consolidate' needs a language model");
  }

  private static Object inference(Engram.Builder b) {
    return field(b, "inference");
  }

  /** A setting that may be absent, which the builder holds as an {@link java.util.Optional}. */
  private static java.util.Optional<?> optionalField(Engram.Builder b, String name) {
    return (java.util.Optional<?>) field(b, name);
  }

  private static Object field(Engram.Builder b, String name) {
    try {
      var f = Engram.Builder.class.getDeclaredField(name);
      f.setAccessible(true);
      return f.get(b);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
