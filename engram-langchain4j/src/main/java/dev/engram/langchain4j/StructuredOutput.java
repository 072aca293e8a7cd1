package dev.engram.langchain4j;

/**
 * How a {@link ChatModelLanguageModel} asks for JSON when a prompt carries a JSON schema. Free-text
 * prompts never get a response format.
 */
public enum StructuredOutput {
  /**
   * The schema itself ({@code response_format: json_schema} on OpenAI) when the model declares the
   * {@code RESPONSE_FORMAT_JSON_SCHEMA} capability, else plain JSON mode. The default.
   */
  SCHEMA,
  /**
   * Plain JSON mode ({@code response_format: json_object} on OpenAI), for servers without schema
   * support.
   */
  JSON_MODE,
  /** No response format at all: the prompt alone asks for JSON and the caller parses tolerantly. */
  NONE;

  /**
   * Parses a configuration value: {@code schema}, {@code json_mode} or {@code none}, in any case.
   */
  public static StructuredOutput parse(String value) {
    for (StructuredOutput s : values()) {
      if (s.name().equalsIgnoreCase(value.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "expected one of schema, json_mode, none; got '" + value + "'");
  }

  /** The configuration spelling, for example {@code json_mode}. */
  public String configName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
