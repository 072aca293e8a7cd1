package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.langchain4j.EngramSettings.PipelineMode;
import dev.engram.onnx.OnnxEmbedders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLoaderTest {
  private static final Map<String, String> OPENAI_ENV = Map.of("OPENAI_API_KEY", Fixtures.KEY);

  @TempDir Path dir;

  private Path write(String yaml) throws IOException {
    return Files.writeString(dir.resolve("engram.yaml"), yaml);
  }

  private ValidationException rejected(String yaml, Map<String, String> env) throws IOException {
    Path file = write(yaml);
    try {
      SettingsLoader.load(file, env);
    } catch (ValidationException e) {
      return e;
    }
    throw new AssertionError("expected a ValidationException for:\n" + yaml);
  }

  @Test
  void readsEveryKeyOfTheFile() throws IOException {
    Files.writeString(dir.resolve("extract.txt"), "Extract facts.");
    Path file =
        write(
            """
        llm:
          provider: openai
          model: gpt-4.1-mini
          base_url: https://api.groq.com/openai/v1
          api_key_env: GROQ_API_KEY
          timeout_seconds: 12.5
          temperature: 0.2
          max_output_tokens: 1500
          structured_output: json_mode
        embedder:
          provider: onnx
          model: all-minilm-l6-v2-q
        pipeline:
          mode: additive
          recent_messages: 6
          similar_memories: 4
          custom_instructions: Ignore small talk.
          extraction_prompt_file: extract.txt
          max_attempts: 5
          source_context: false
        data_dir: data
        """);

    EngramSettings s = SettingsLoader.load(file, Map.of("GROQ_API_KEY", "gsk-1"));

    assertThat(s.llm())
        .contains(
            new EngramSettings.Llm(
                LlmProvider.OPENAI,
                "gpt-4.1-mini",
                Optional.of("https://api.groq.com/openai/v1"),
                "GROQ_API_KEY",
                Optional.empty(),
                Duration.ofMillis(12_500),
                OptionalDouble.of(0.2),
                OptionalInt.of(1500),
                StructuredOutput.JSON_MODE));
    assertThat(s.embedder())
        .isEqualTo(
            EngramSettings.Embedder.builder(EmbedderProvider.ONNX)
                .model(OnnxEmbedders.MINILM)
                .build());
    assertThat(s.pipeline())
        .isEqualTo(
            EngramSettings.Pipeline.builder(PipelineMode.ADDITIVE)
                .recentMessages(6)
                .similarMemories(4)
                .customInstructions(Optional.of("Ignore small talk."))
                .extractionPromptFile(Optional.of(dir.resolve("extract.txt")))
                .maxAttempts(5)
                .sourceContext(false)
                .build());
    assertThat(s.dataDir()).isEqualTo(dir.resolve("data"));
  }

  @Test
  void emptyFileGivesTheOfflineDefaults() throws IOException {
    EngramSettings s = SettingsLoader.load(write(""), Map.of());

    assertThat(s).isEqualTo(EngramSettings.defaults());
    assertThat(s.pipeline().mode()).isEqualTo(PipelineMode.OFFLINE);
    assertThat(s.pipeline().sourceContext()).isTrue();
    assertThat(s.embedder().model()).isEqualTo(OnnxEmbedders.DEFAULT);
  }

  @Test
  void environmentOverridesTheFile() throws IOException {
    Path file =
        write(
            """
        llm:
          provider: openai
          model: gpt-4o-mini
          timeout_seconds: 30
        embedder:
          provider: onnx
        data_dir: data
        """);
    Map<String, String> env =
        Map.of(
            "OPENAI_API_KEY",
            Fixtures.KEY,
            "ENGRAM_LLM_MODEL",
            "gpt-4.1-nano",
            "ENGRAM_LLM_BASE_URL",
            "http://localhost:8000/v1",
            "ENGRAM_EMBEDDER",
            "ollama:nomic-embed-text:latest",
            "ENGRAM_DATA_DIR",
            dir.resolve("elsewhere").toString());

    EngramSettings s = SettingsLoader.load(file, env);

    EngramSettings.Llm llm = s.llm().orElseThrow();
    assertThat(llm.provider()).isEqualTo(LlmProvider.OPENAI);
    assertThat(llm.model()).isEqualTo("gpt-4.1-nano");
    assertThat(llm.baseUrl()).contains("http://localhost:8000/v1");
    assertThat(llm.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.embedder().provider()).isEqualTo(EmbedderProvider.OLLAMA);
    assertThat(s.embedder().model()).isEqualTo("nomic-embed-text:latest");
    assertThat(s.dataDir()).isEqualTo(dir.resolve("elsewhere"));
    assertThat(s.pipeline().mode()).isEqualTo(PipelineMode.CONSOLIDATE);
  }

  @Test
  void switchingProviderInTheEnvironmentDropsTheFilesProviderKeys() throws IOException {
    Path file =
        write(
            """
        llm:
          provider: openai
          model: gpt-4o-mini
          api_key_env: MY_OPENAI_KEY
          timeout_seconds: 20
        """);

    EngramSettings.Llm llm =
        SettingsLoader.load(file, Map.of("ENGRAM_LLM_PROVIDER", "Ollama")).llm().orElseThrow();

    assertThat(llm)
        .isEqualTo(
            EngramSettings.Llm.builder(LlmProvider.OLLAMA).timeout(Duration.ofSeconds(20)).build());
  }

  @Test
  void providerNoneInTheEnvironmentTurnsTheLanguageModelOff() throws IOException {
    EngramSettings s =
        SettingsLoader.load(
            write("llm:\n  provider: openai\n"), Map.of("ENGRAM_LLM_PROVIDER", "none"));

    assertThat(s.llm()).isEmpty();
    assertThat(s.pipeline().mode()).isEqualTo(PipelineMode.OFFLINE);
  }

  @Test
  void environmentAloneConfiguresAProvider() {
    EngramSettings s =
        SettingsLoader.fromEnvironment(
            Map.of("ENGRAM_LLM_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "sk-ant-1"));

    assertThat(s.llm()).contains(EngramSettings.Llm.of(LlmProvider.ANTHROPIC));
    assertThat(s.llm().orElseThrow().model()).isEqualTo("claude-haiku-4-5");
    assertThat(s.pipeline().mode()).isEqualTo(PipelineMode.CONSOLIDATE);
  }

  @Test
  void missingKeyVariableIsNamed() throws IOException {
    ValidationException e = rejected("llm:\n  provider: openai\n", Map.of());
    assertThat(e.field()).isEqualTo("llm.api_key_env");
    assertThat(e.getMessage())
        .contains("environment variable OPENAI_API_KEY is not set", "provider openai");

    ValidationException custom =
        rejected("llm:\n  provider: gemini\n  api_key_env: MY_GEMINI\n", Map.of());
    assertThat(custom.getMessage()).contains("environment variable MY_GEMINI is not set");

    ValidationException embedder = rejected("embedder:\n  provider: openai\n", Map.of());
    assertThat(embedder.field()).isEqualTo("embedder.api_key_env");
    assertThat(embedder.getMessage()).contains("OPENAI_API_KEY");
  }

  @Test
  void localServersNeedNoKey() throws IOException {
    EngramSettings s =
        SettingsLoader.load(
            write(
                """
        llm:
          provider: openai
          base_url: http://localhost:11434/v1
          model: qwen2.5:7b
        embedder:
          provider: ollama
        """),
            Map.of());

    assertThat(s.llm().orElseThrow().baseUrl()).contains("http://localhost:11434/v1");
    assertThat(s.embedder()).isEqualTo(EngramSettings.Embedder.of(EmbedderProvider.OLLAMA));
  }

  @Test
  void apiKeyInTheFileIsRejectedWithoutEchoingIt() throws IOException {
    ValidationException e =
        rejected("llm:\n  provider: openai\n  api_key: sk-secret-in-yaml\n", OPENAI_ENV);

    assertThat(e.field()).isEqualTo("llm.api_key");
    assertThat(e.getMessage())
        .contains("never read from", "llm.api_key_env", "llm.api_key_file")
        .doesNotContain("sk-secret-in-yaml");
  }

  @Test
  void unknownKeysAreRejectedWithTheirNameAndTheFile() throws IOException {
    ValidationException nested =
        rejected("llm:\n  provider: openai\n  tempreature: 0.1\n", OPENAI_ENV);
    assertThat(nested.field()).isEqualTo("llm.tempreature");
    assertThat(nested.getMessage())
        .contains("unknown key in " + dir.resolve("engram.yaml"), "temperature");

    ValidationException root = rejected("vector_store: lucene\n", Map.of());
    assertThat(root.field()).isEqualTo("vector_store");

    ValidationException pipeline = rejected("pipeline:\n  recent_mesages: 3\n", Map.of());
    assertThat(pipeline.field()).isEqualTo("pipeline.recent_mesages");
  }

  @Test
  void badValuesNameTheKey() throws IOException {
    assertThat(rejected("llm:\n  provider: openai\n  timeout_seconds: soon\n", OPENAI_ENV).field())
        .isEqualTo("llm.timeout_seconds");
    assertThat(rejected("llm:\n  provider: mistral\n", Map.of()).getMessage())
        .contains("'mistral'", "openai, anthropic, ollama, gemini");
    assertThat(rejected("pipeline:\n  mode: consolidate\n", Map.of()).getMessage())
        .contains("needs a language model");
    assertThat(rejected("embedder:\n  model: e5-large\n", Map.of()).field())
        .isEqualTo("embedder.model");
    assertThat(rejected("pipeline:\n  max_attempts: 0\n", Map.of()).field())
        .isEqualTo("pipeline.max_attempts");
    assertThat(rejected("pipeline:\n  extraction_prompt_file: nope.txt\n", Map.of()).getMessage())
        .contains(dir.resolve("nope.txt").toString());
    assertThat(
            rejected("llm:\n  provider: openai\nllm:\n  provider: gemini\n", OPENAI_ENV)
                .getMessage())
        .contains("Duplicate field 'llm'");
    assertThatThrownBy(() -> SettingsLoader.fromEnvironment(Map.of("ENGRAM_LLM_MODEL", "gpt-4o")))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> assertThat(e.getMessage()).contains("ENGRAM_LLM_PROVIDER"));
  }

  @Test
  void secretsFileIsResolvedAgainstTheConfigDirectory() throws IOException {
    Path file = write("llm:\n  provider: anthropic\n  api_key_file: secrets/anthropic.key\n");
    ValidationException missing = rejected(Files.readString(file), Map.of());
    assertThat(missing.field()).isEqualTo("llm.api_key_file");
    assertThat(missing.getMessage()).contains(dir.resolve("secrets/anthropic.key").toString());

    Files.createDirectories(dir.resolve("secrets"));
    Files.writeString(dir.resolve("secrets/anthropic.key"), "sk-ant-from-file\n");
    EngramSettings.Llm llm = SettingsLoader.load(file, Map.of()).llm().orElseThrow();

    assertThat(llm.apiKeyFile()).contains(dir.resolve("secrets/anthropic.key"));
    assertThat(llm.toString()).doesNotContain("sk-ant-from-file");
  }

  @Test
  void locatesTheFileByVariableOrInTheWorkingDirectory() throws IOException {
    assertThat(SettingsLoader.locate(Map.of(), dir)).isEmpty();
    write("data_dir: d\n");
    assertThat(SettingsLoader.locate(Map.of(), dir)).contains(dir.resolve("engram.yaml"));
    assertThat(SettingsLoader.locate(Map.of("ENGRAM_CONFIG", "conf/other.yaml"), dir))
        .contains(dir.resolve("conf/other.yaml"));
    assertThat(SettingsLoader.loadDefault(Map.of(), dir).dataDir()).isEqualTo(dir.resolve("d"));
  }
}
