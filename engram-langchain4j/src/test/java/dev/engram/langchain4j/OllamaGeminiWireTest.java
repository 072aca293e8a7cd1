package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.LanguageModel.Completion;
import org.junit.jupiter.api.Test;

/**
 * Ollama's native API (langchain4j-ollama 1.18.1 beside langchain4j-core 1.19.0) and Gemini against
 * a stub that checks what goes over the wire.
 */
class OllamaGeminiWireTest extends WireTestCase {
  @Test
  void ollamaNativeSendsSchemaAsFormatAndReadsEvalCounts() {
    stub.reply(200, Fixtures.ollamaChat(Fixtures.ANSWER, 350, 19));
    LanguageModel m =
        Providers.ollama(ModelSettings.builder("llama3.1:8b").baseUrl(stub.url("")).build());

    Completion c = m.complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(c.inputTokens()).isEqualTo(350);
    assertThat(c.outputTokens()).isEqualTo(19);
    assertThat(m.modelId()).isEqualTo("ollama/llama3.1:8b");
    StubServer.Recorded r = stub.single();
    assertThat(r.path()).isEqualTo("/api/chat");
    assertThat(r.header("Authorization")).isNull();
    JsonNode body = r.json();
    assertThat(body.get("model").asText()).isEqualTo("llama3.1:8b");
    assertThat(body.at("/messages/0/role").asText()).isEqualTo("system");
    assertThat(body.at("/messages/0/content").asText()).isEqualTo(Fixtures.SYSTEM);
    assertThat(body.at("/messages/1/role").asText()).isEqualTo("user");
    assertThat(body.at("/messages/1/content").asText()).isEqualTo(Fixtures.USER);
    assertThat(body.get("format")).isEqualTo(Fixtures.schemaJson());
    assertThat(body.at("/options/num_predict").asInt()).isEqualTo(512);
    assertThat(body.at("/options/temperature").asDouble()).isEqualTo(0.0);
    assertThat(body.get("stream").asBoolean()).isFalse();
  }

  @Test
  void ollamaJsonModeSendsFormatJsonAndAnErrorBodyBecomesTheMessage() {
    stub.reply(200, Fixtures.ollamaChat(Fixtures.ANSWER, 10, 5));
    stub.reply(404, "{\"error\":\"model \\\"llama9\\\" not found, try pulling it first\"}");
    LanguageModel m =
        Providers.ollama(
            ModelSettings.builder("llama3.1:8b")
                .baseUrl(stub.url(""))
                .structuredOutput(StructuredOutput.JSON_MODE)
                .build());

    m.complete(Fixtures.jsonPrompt());
    assertThat(stub.single().json().get("format").asText()).isEqualTo("json");
    assertThatThrownBy(() -> m.complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.BAD_REQUEST);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "ollama/llama3.1:8b: request rejected (HTTP 404): model \"llama9\""
                          + " not found, try pulling it first");
            });
  }

  @Test
  void geminiSendsKeyHeaderSystemInstructionAndSchemaAndReadsUsage() {
    stub.reply(200, Fixtures.geminiResponse(Fixtures.ANSWER, 380, 15));
    LanguageModel m =
        Providers.gemini(
            ModelSettings.builder("gemini-2.5-flash")
                .baseUrl(stub.url("/v1beta"))
                .apiKey(Fixtures.KEY)
                .build());

    Completion c = m.complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(c.inputTokens()).isEqualTo(380);
    assertThat(c.outputTokens()).isEqualTo(15);
    StubServer.Recorded r = stub.single();
    assertThat(r.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
    assertThat(r.header("x-goog-api-key")).isEqualTo(Fixtures.KEY);
    JsonNode body = r.json();
    assertThat(body.at("/systemInstruction/parts/0/text").asText()).isEqualTo(Fixtures.SYSTEM);
    assertThat(body.at("/contents/0/role").asText()).isEqualTo("user");
    assertThat(body.at("/contents/0/parts/0/text").asText()).isEqualTo(Fixtures.USER);
    assertThat(body.at("/generationConfig/responseMimeType").asText())
        .isEqualTo("application/json");
    assertThat(body.at("/generationConfig/responseJsonSchema")).isEqualTo(Fixtures.schemaJson());
    assertThat(body.at("/generationConfig/maxOutputTokens").asInt()).isEqualTo(512);
  }

  @Test
  void geminiQuotaErrorIsRateLimitedWithoutTheKey() {
    stub.reply(
        429,
        "{\"error\":{\"code\":429,\"message\":\"Resource has been exhausted (e.g. check quota).\","
            + "\"status\":\"RESOURCE_EXHAUSTED\"}}");
    LanguageModel m =
        Providers.gemini(
            ModelSettings.builder("gemini-2.5-flash")
                .baseUrl(stub.url("/v1beta"))
                .apiKey(Fixtures.KEY)
                .build());

    assertThatThrownBy(() -> m.complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.RATE_LIMITED);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "gemini/gemini-2.5-flash: rate limited (HTTP 429): Resource has been"
                          + " exhausted (e.g. check quota). [429]");
            });
    assertThat(stub.requests()).hasSize(1);
  }
}
