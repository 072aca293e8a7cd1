package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.LanguageModel.Completion;
import dev.langchain4j.model.openai.OpenAiChatModel;
import org.junit.jupiter.api.Test;

/** The OpenAI adapter against a stub that checks what goes over the wire. */
class OpenAiWireTest extends WireTestCase {
  private LanguageModel model(ModelSettings.Builder b) {
    return Providers.openAi(b.baseUrl(stub.url("/v1")).build());
  }

  @Test
  void jsonPromptSendsOurSchemaAsJsonSchemaAndReadsTokenCounts() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 412, 17));
    LanguageModel m = model(ModelSettings.builder("gpt-4o-mini").apiKey(Fixtures.KEY));

    Completion c = m.complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(c.inputTokens()).isEqualTo(412);
    assertThat(c.outputTokens()).isEqualTo(17);
    assertThat(c.latency().isNegative()).isFalse();
    assertThat(m.modelId()).isEqualTo("openai/gpt-4o-mini");

    StubServer.Recorded r = stub.single();
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/v1/chat/completions");
    assertThat(r.header("Authorization")).isEqualTo("Bearer " + Fixtures.KEY);
    JsonNode body = r.json();
    assertThat(body.get("model").asText()).isEqualTo("gpt-4o-mini");
    assertThat(body.get("messages")).hasSize(2);
    assertThat(body.at("/messages/0/role").asText()).isEqualTo("system");
    assertThat(body.at("/messages/0/content").asText()).isEqualTo(Fixtures.SYSTEM);
    assertThat(body.at("/messages/1/role").asText()).isEqualTo("user");
    assertThat(body.at("/messages/1/content").asText()).isEqualTo(Fixtures.USER);
    assertThat(body.get("max_tokens").asInt()).isEqualTo(512);
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.0);
    assertThat(body.at("/response_format/type").asText()).isEqualTo("json_schema");
    assertThat(body.at("/response_format/json_schema/name").asText()).isEqualTo("facts");
    assertThat(body.at("/response_format/json_schema/strict").asBoolean()).isFalse();
    assertThat(body.at("/response_format/json_schema/schema")).isEqualTo(Fixtures.schemaJson());
  }

  @Test
  void jsonModeSendsJsonObjectWithoutSchema() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 100, 10));
    model(
            ModelSettings.builder("llama-3.1-8b-instant")
                .apiKey(Fixtures.KEY)
                .structuredOutput(StructuredOutput.JSON_MODE))
        .complete(Fixtures.jsonPrompt());

    JsonNode format = stub.single().json().get("response_format");
    assertThat(format.toString()).isEqualTo("{\"type\":\"json_object\"}");
  }

  @Test
  void noneAndFreeTextPromptsSendNoResponseFormat() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 100, 10));
    stub.reply(200, Fixtures.openAiCompletion("Caroline has a puppy.", 90, 6));
    model(
            ModelSettings.builder("gpt-4o-mini")
                .apiKey(Fixtures.KEY)
                .structuredOutput(StructuredOutput.NONE))
        .complete(Fixtures.jsonPrompt());
    Completion text =
        model(ModelSettings.builder("gpt-4o-mini").apiKey(Fixtures.KEY))
            .complete(Fixtures.textPrompt());

    assertThat(text.text()).isEqualTo("Caroline has a puppy.");
    assertThat(stub.requests())
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.json().has("response_format")).isFalse());
    assertThat(stub.requests().get(1).json().get("temperature").asDouble()).isEqualTo(0.3);
    assertThat(stub.requests().get(1).json().get("max_tokens").asInt()).isEqualTo(256);
  }

  @Test
  void compatibleServerWithoutKeyGetsNoAuthorizationHeader() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 50, 9));
    Completion c = model(ModelSettings.builder("qwen2.5:7b")).complete(Fixtures.jsonPrompt());

    assertThat(c.inputTokens()).isEqualTo(50);
    assertThat(stub.single().header("Authorization")).isNull();
    assertThat(stub.single().json().get("model").asText()).isEqualTo("qwen2.5:7b");
  }

  @Test
  void configuredTemperatureAndTokenLimitReplaceThePromptsOwn() {
    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 50, 9));
    model(
            ModelSettings.builder("o4-mini")
                .apiKey(Fixtures.KEY)
                .temperature(1.0)
                .maxOutputTokens(4000))
        .complete(Fixtures.jsonPrompt());

    JsonNode body = stub.single().json();
    assertThat(body.get("temperature").asDouble()).isEqualTo(1.0);
    assertThat(body.get("max_tokens").asInt()).isEqualTo(4000);
  }

  @Test
  void missingUsageCountsZeroTokens() {
    stub.reply(
        200,
        "{\"id\":\"cmpl-1\",\"object\":\"chat.completion\",\"created\":1718000000,\"model\":\"local\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"{}\"},"
            + "\"finish_reason\":\"stop\"}]}");
    Completion c = model(ModelSettings.builder("local")).complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo("{}");
    assertThat(c.inputTokens()).isZero();
    assertThat(c.outputTokens()).isZero();
  }

  @Test
  void openAiItselfGetsMaxCompletionTokensOtherServersMaxTokens() {
    assertThat(Providers.isOpenAiItself(Providers.OPENAI_URL)).isTrue();
    assertThat(Providers.isOpenAiItself("https://API.openai.com/v1/")).isTrue();
    assertThat(Providers.isOpenAiItself("https://api.groq.com/openai/v1")).isFalse();
    assertThat(Providers.isOpenAiItself("http://localhost:11434/v1")).isFalse();
    assertThat(Providers.isOpenAiItself("not a url")).isFalse();

    stub.reply(200, Fixtures.openAiCompletion(Fixtures.ANSWER, 50, 9));
    OpenAiChatModel chat =
        OpenAiChatModel.builder()
            .baseUrl(stub.url("/v1"))
            .apiKey(Fixtures.KEY)
            .modelName("o4-mini")
            .maxRetries(0)
            .build();
    ChatModelLanguageModel.builder(chat, "openai/o4-mini")
        .maxCompletionTokens(true)
        .build()
        .complete(Fixtures.jsonPrompt());

    JsonNode body = stub.single().json();
    assertThat(body.get("max_completion_tokens").asInt()).isEqualTo(512);
    assertThat(body.has("max_tokens")).isFalse();
  }
}
