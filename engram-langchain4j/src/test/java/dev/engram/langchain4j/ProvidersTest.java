package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.LanguageModel;
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

/**
 * Models built from {@link EngramSettings}: the key comes from the environment or a file and goes
 * on the wire.
 */
class ProvidersTest extends WireTestCase {
  @TempDir Path dir;

  @Test
  void keyFromTheNamedVariableAndConfiguredLimitsGoOnTheWire() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 200, 12));
    EngramSettings.Llm llm =
        new EngramSettings.Llm(
            LlmProvider.OPENAI,
            "deepseek-chat",
            Optional.of(stub.url("/v1")),
            "DEEPSEEK_API_KEY",
            Optional.empty(),
            Duration.ofSeconds(5),
            OptionalDouble.of(0.7),
            OptionalInt.of(900),
            StructuredOutput.SCHEMA);

    LanguageModel m = Providers.languageModel(llm, Map.of("DEEPSEEK_API_KEY", Fixtures.KEY));
    var c = m.complete(Fixtures.jsonPrompt());

    assertThat(m.modelId()).isEqualTo("openai/deepseek-chat");
    assertThat(c.inputTokens()).isEqualTo(200);
    StubServer.Recorded r = stub.single();
    assertThat(r.header("Authorization")).isEqualTo("Bearer " + Fixtures.KEY);
    JsonNode body = r.json();
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.7);
    assertThat(body.get("max_tokens").asInt()).isEqualTo(900);
  }

  @Test
  void keyFromASecretsFile() throws IOException {
    Path secret = Files.writeString(dir.resolve("anthropic.key"), Fixtures.KEY + "\n");
    stub.reply(200, Fixtures.anthropicMessage("ok", 5, 1));
    EngramSettings.Llm llm =
        new EngramSettings.Llm(
            LlmProvider.ANTHROPIC,
            "claude-haiku-4-5",
            Optional.of(stub.url("/v1/")),
            "ANTHROPIC_API_KEY",
            Optional.of(secret),
            Duration.ofSeconds(5),
            OptionalDouble.empty(),
            OptionalInt.empty(),
            StructuredOutput.SCHEMA);

    Providers.languageModel(llm, Map.of()).complete(Fixtures.textPrompt());

    assertThat(stub.single().header("x-api-key")).isEqualTo(Fixtures.KEY);
  }

  @Test
  void missingKeyNamesTheVariable() {
    assertThatThrownBy(
            () -> Providers.languageModel(EngramSettings.Llm.of(LlmProvider.GEMINI), Map.of()))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.field()).isEqualTo("llm.api_key_env");
              assertThat(e.getMessage()).contains("GEMINI_API_KEY");
            });
    assertThatThrownBy(
            () -> Providers.embedder(EngramSettings.Embedder.of(EmbedderProvider.OPENAI), Map.of()))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.getMessage()).contains("OPENAI_API_KEY"));
  }

  @Test
  void everyProviderBuildsWithoutTouchingTheNetwork() {
    Map<String, String> env =
        Map.of("OPENAI_API_KEY", "a", "ANTHROPIC_API_KEY", "b", "GEMINI_API_KEY", "c");
    for (LlmProvider p : LlmProvider.values()) {
      EngramSettings.Llm llm = EngramSettings.Llm.builder(p).baseUrl(stub.url("/unused")).build();
      assertThat(Providers.languageModel(llm, env).modelId())
          .isEqualTo(p.configName() + "/" + p.defaultModel());
    }
    assertThat(stub.requests()).isEmpty();
  }

  @Test
  void onnxEmbedderIsTheSharedInProcessModel() {
    assertThat(Providers.embedder(EngramSettings.Embedder.of(EmbedderProvider.ONNX), Map.of()))
        .isSameAs(OnnxEmbedders.defaultEmbedder());
  }

  @Test
  void settingsNeverShowTheKey() {
    ModelSettings s =
        ModelSettings.builder("gpt-4o-mini")
            .apiKey(Fixtures.KEY)
            .baseUrl("https://example.test/v1")
            .build();

    assertThat(s.toString()).contains("apiKey=***", "gpt-4o-mini").doesNotContain(Fixtures.KEY);
    assertThat(s.apiKey()).contains(Fixtures.KEY);
    assertThat(ModelSettings.builder("m").build().toString()).contains("apiKey=(none)");
    EngramSettings all =
        SettingsLoader.fromEnvironment(
            Map.of("ENGRAM_LLM_PROVIDER", "openai", "OPENAI_API_KEY", Fixtures.KEY));
    assertThat(all.toString()).contains("OPENAI_API_KEY").doesNotContain(Fixtures.KEY);
  }
}
