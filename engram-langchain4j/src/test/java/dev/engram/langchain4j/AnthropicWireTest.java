package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.LanguageModel.Completion;
import org.junit.jupiter.api.Test;

/** The Anthropic adapter against a stub that checks what goes over the wire. */
class AnthropicWireTest extends WireTestCase {
  private LanguageModel model(StructuredOutput output) {
    return Providers.anthropic(
        ModelSettings.builder("claude-haiku-4-5")
            .baseUrl(stub.url("/v1/"))
            .apiKey(Fixtures.KEY)
            .structuredOutput(output)
            .build());
  }

  @Test
  void sendsKeyVersionSystemUserAndSchemaAndReadsTokenCounts() {
    stub.reply(200, Fixtures.anthropicMessage(Fixtures.ANSWER, 398, 21));

    Completion c = model(StructuredOutput.SCHEMA).complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(c.inputTokens()).isEqualTo(398);
    assertThat(c.outputTokens()).isEqualTo(21);
    StubServer.Recorded r = stub.single();
    assertThat(r.path()).isEqualTo("/v1/messages");
    assertThat(r.header("x-api-key")).isEqualTo(Fixtures.KEY);
    assertThat(r.header("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(r.header("Authorization")).isNull();
    JsonNode body = r.json();
    assertThat(body.get("model").asText()).isEqualTo("claude-haiku-4-5");
    assertThat(body.at("/system/0/text").asText()).isEqualTo(Fixtures.SYSTEM);
    assertThat(body.get("messages")).hasSize(1);
    assertThat(body.at("/messages/0/role").asText()).isEqualTo("user");
    assertThat(body.at("/messages/0/content/0/text").asText()).isEqualTo(Fixtures.USER);
    assertThat(body.get("max_tokens").asInt()).isEqualTo(512);
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.0);
    assertThat(body.at("/output_config/format/type").asText()).isEqualTo("json_schema");
    assertThat(body.at("/output_config/format/schema")).isEqualTo(Fixtures.schemaJson());
  }

  @Test
  void jsonModeFallsBackToThePromptAloneBecauseAnthropicHasNoSchemalessJson() {
    stub.reply(200, Fixtures.anthropicMessage(Fixtures.ANSWER, 300, 20));

    Completion c = model(StructuredOutput.JSON_MODE).complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(stub.single().json().has("output_config")).isFalse();
  }

  @Test
  void overloadedIsAServerErrorAndABadKeyIsAnAuthenticationErrorWithoutTheKey() {
    stub.reply(
        529,
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
    stub.reply(
        401,
        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":"
            + "\"invalid x-api-key "
            + Fixtures.KEY
            + "\"}}");
    LanguageModel m = model(StructuredOutput.SCHEMA);

    assertThatThrownBy(() -> m.complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.SERVER_ERROR);
              assertThat(e.getMessage())
                  .contains("anthropic/claude-haiku-4-5", "HTTP 529", "Overloaded");
            });
    assertThatThrownBy(() -> m.complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.AUTHENTICATION);
              assertThat(e.getMessage())
                  .contains("HTTP 401", "invalid x-api-key ***")
                  .doesNotContain(Fixtures.KEY);
              assertThat(ErrorMappingWireTest.chainText(e)).doesNotContain(Fixtures.KEY);
            });
    assertThat(stub.requests()).hasSize(2);
  }
}
