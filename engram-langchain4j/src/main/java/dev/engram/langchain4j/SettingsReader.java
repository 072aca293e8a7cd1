package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.langchain4j.EngramSettings.PipelineMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Builds the {@link EngramSettings} records from checked YAML sections, applying defaults. */
final class SettingsReader {
  private SettingsReader() {}

  static EngramSettings.Llm llm(YamlFields f, ObjectNode n, Map<String, String> env) {
    String providerName = f.text(n, "llm", "provider").orElseThrow(() -> new ValidationException("llm.provider",
        "missing in " + f.source() + " (one of openai, anthropic, ollama, gemini)"));
    LlmProvider provider = YamlFields.choice(LlmProvider.class, providerName, "llm.provider", f.source());
    StructuredOutput structured = f.text(n, "llm", "structured_output")
        .map(v -> YamlFields.choice(StructuredOutput.class, v, "llm.structured_output", f.source()))
        .orElse(StructuredOutput.SCHEMA);
    EngramSettings.Llm llm = new EngramSettings.Llm(provider,
        f.text(n, "llm", "model").orElse(provider.defaultModel()),
        f.text(n, "llm", "base_url"),
        f.text(n, "llm", "api_key_env").orElse(provider.defaultApiKeyEnv()),
        f.path(n, "llm", "api_key_file"),
        f.seconds(n, "llm", "timeout_seconds").orElse(ModelSettings.DEFAULT_TIMEOUT),
        f.decimal(n, "llm", "temperature", 0, 2),
        f.integer(n, "llm", "max_output_tokens", 1),
        structured);
    Secrets.apiKey("llm", provider.configName(), llm.apiKeyEnv(), llm.apiKeyFile(), env,
        Providers.needsKey(provider, llm.baseUrl()));
    return llm;
  }

  static EngramSettings.Embedder embedder(YamlFields f, ObjectNode n, Map<String, String> env) {
    EmbedderProvider provider = f.text(n, "embedder", "provider")
        .map(v -> YamlFields.choice(EmbedderProvider.class, v, "embedder.provider", f.source()))
        .orElse(EmbedderProvider.ONNX);
    EngramSettings.Embedder e = new EngramSettings.Embedder(provider,
        f.text(n, "embedder", "model").orElse(provider.defaultModel()),
        f.text(n, "embedder", "base_url"),
        f.text(n, "embedder", "api_key_env").orElse(provider.defaultApiKeyEnv()),
        f.path(n, "embedder", "api_key_file"),
        f.seconds(n, "embedder", "timeout_seconds").orElse(ModelSettings.DEFAULT_TIMEOUT),
        f.integer(n, "embedder", "dimensions", 1),
        Optional.ofNullable(n.get("query_prefix")).map(q -> q.asText()).orElse(""));
    if (provider == EmbedderProvider.ONNX && !OnnxEmbedders.names().contains(e.model())) {
      throw new ValidationException("embedder.model", "unknown in-process model '" + e.model() + "' in "
          + f.source() + " (expected one of " + String.join(", ", OnnxEmbedders.names()) + ")");
    }
    if (provider != EmbedderProvider.ONNX) {
      Secrets.apiKey("embedder", provider.configName(), e.apiKeyEnv(), e.apiKeyFile(), env,
          Providers.needsKey(provider, e.baseUrl()));
    }
    return e;
  }

  static EngramSettings.Pipeline pipeline(YamlFields f, ObjectNode n, boolean hasLlm) {
    PipelineMode mode = f.text(n, "pipeline", "mode")
        .map(v -> YamlFields.choice(PipelineMode.class, v, "pipeline.mode", f.source()))
        .orElse(SettingsLoader.defaultMode(hasLlm));
    if (mode != PipelineMode.OFFLINE && !hasLlm) {
      throw new ValidationException("pipeline.mode", "'" + mode.configName() + "' needs a language model: add an"
          + " llm section to " + f.source() + " or set ENGRAM_LLM_PROVIDER, or use mode: offline");
    }
    Optional<Path> prompt = f.path(n, "pipeline", "extraction_prompt_file");
    if (prompt.isPresent() && !Files.isRegularFile(prompt.get())) {
      throw new ValidationException("pipeline.extraction_prompt_file", "file not found: " + prompt.get()
          + " (named in " + f.source() + ")");
    }
    return new EngramSettings.Pipeline(mode,
        f.integer(n, "pipeline", "recent_messages", 0).orElse(10),
        f.integer(n, "pipeline", "similar_memories", 1).orElse(10),
        f.text(n, "pipeline", "custom_instructions"),
        prompt,
        f.integer(n, "pipeline", "max_attempts", 1).orElse(3),
        f.text(n, "pipeline", "graph").map(v -> bool(v, "pipeline.graph", f.source())).orElse(false));
  }

  private static boolean bool(String value, String field, String source) {
    switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new ValidationException(field, "must be true or false, got '" + value + "' (in " + source + ")");
    }
  }
}
