package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.spi.LanguageModel.Prompt;
import java.util.List;
import java.util.Map;

/** Prompts, schemas and recorded provider responses shared by the wire tests. */
final class Fixtures {
  static final String KEY = "sk-test-4f9a1c2b7d";
  static final String SYSTEM = "Extract durable facts about the speakers. Answer with JSON.";
  static final String USER = "Caroline (2023-05-08): I adopted a puppy named Max yesterday.";
  static final String ANSWER = "{\"facts\":[\"Caroline adopted a puppy named Max on 2023-05-07\"]}";

  static final Map<String, Object> SCHEMA =
      Map.of(
          "type",
          "object",
          "properties",
          Map.of("facts", Map.of("type", "array", "items", Map.of("type", "string"))),
          "required",
          List.of("facts"),
          "additionalProperties",
          false);

  static Prompt jsonPrompt() {
    return new Prompt(SYSTEM, USER, "facts", SCHEMA, 512, 0.0);
  }

  static Prompt textPrompt() {
    return new Prompt(SYSTEM, USER, null, null, 256, 0.3);
  }

  static JsonNode schemaJson() {
    return StubServer.JSON.valueToTree(SCHEMA);
  }

  /** An OpenAI chat completion (as of the 2024-07 API) with usage. */
  static String openAiCompletion(String content, int promptTokens, int completionTokens) {
    return "{\"id\":\"chatcmpl-A1b2C3d4E5\",\"object\":\"chat.completion\",\"created\":1718000000,"
        + "\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":"
        + quote(content)
        + ",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
        + "\"usage\":{\"prompt_tokens\":"
        + promptTokens
        + ",\"completion_tokens\":"
        + completionTokens
        + ",\"total_tokens\":"
        + (promptTokens + completionTokens)
        + ",\"prompt_tokens_details\":{\"cached_tokens\":0},"
        + "\"completion_tokens_details\":{\"reasoning_tokens\":0}},\"system_fingerprint\":\"fp_0ba0d124f1\"}";
  }

  static String openAiError(String message, String type, String code) {
    return "{\"error\":{\"message\":"
        + quote(message)
        + ",\"type\":\""
        + type
        + "\",\"param\":null,\"code\":"
        + (code == null ? "null" : "\"" + code + "\"")
        + "}}";
  }

  /** An Anthropic Messages API answer. */
  static String anthropicMessage(String text, int inputTokens, int outputTokens) {
    return "{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"model\":\"claude-3-5-haiku-20241022\",\"content\":[{\"type\":\"text\",\"text\":"
        + quote(text)
        + "}],"
        + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":"
        + inputTokens
        + ",\"output_tokens\":"
        + outputTokens
        + ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}}";
  }

  /** An Ollama {@code /api/chat} answer (stream false). */
  static String ollamaChat(String content, int promptEval, int eval) {
    return "{\"model\":\"llama3.1:8b\",\"created_at\":\"2024-07-22T20:33:28.123648Z\",\"message\":{\"role\":"
        + "\"assistant\",\"content\":"
        + quote(content)
        + "},\"done_reason\":\"stop\",\"done\":true,"
        + "\"total_duration\":4883583458,\"load_duration\":1334875,\"prompt_eval_count\":"
        + promptEval
        + ",\"prompt_eval_duration\":342546000,\"eval_count\":"
        + eval
        + ",\"eval_duration\":4535599000}";
  }

  /** A Gemini {@code generateContent} answer. */
  static String geminiResponse(String text, int promptTokens, int candidateTokens) {
    return "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":"
        + quote(text)
        + "}],\"role\":\"model\"},"
        + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":"
        + promptTokens
        + ",\"candidatesTokenCount\":"
        + candidateTokens
        + ",\"totalTokenCount\":"
        + (promptTokens + candidateTokens)
        + "},\"modelVersion\":\"gemini-2.0-flash\",\"responseId\":\"mJZhaPLqA4-1nvgP3rmC4Q0\"}";
  }

  static String quote(String s) {
    try {
      return StubServer.JSON.writeValueAsString(s);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private Fixtures() {}
}
