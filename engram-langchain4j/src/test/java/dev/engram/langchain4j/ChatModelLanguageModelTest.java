package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.engram.spi.LanguageModel.Prompt;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Request building, response reading and error mapping of {@link ChatModelLanguageModel}, without
 * HTTP.
 */
class ChatModelLanguageModelTest {

  /** A ChatModel that records requests and answers with a function of them. */
  private static final class FakeModel implements ChatModel {
    final List<ChatRequest> requests = new ArrayList<>();
    final Set<Capability> capabilities;
    final Function<ChatRequest, ChatResponse> answer;

    FakeModel(Set<Capability> capabilities, Function<ChatRequest, ChatResponse> answer) {
      this.capabilities = capabilities;
      this.answer = answer;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.add(request);
      return answer.apply(request);
    }

    @Override
    public Set<Capability> supportedCapabilities() {
      return capabilities;
    }
  }

  private static ChatResponse answer(String text, TokenUsage usage) {
    return ChatResponse.builder().aiMessage(AiMessage.from(text)).tokenUsage(usage).build();
  }

  @Test
  void schemaGoesOutAsRawJsonSchemaWhenTheModelSupportsIt() {
    FakeModel model =
        new FakeModel(
            Set.of(Capability.RESPONSE_FORMAT_JSON_SCHEMA),
            r -> answer(Fixtures.ANSWER, new TokenUsage(120, 30)));

    var c = ChatModelLanguageModel.of(model, "fake/m").complete(Fixtures.jsonPrompt());

    assertThat(c.text()).isEqualTo(Fixtures.ANSWER);
    assertThat(c.inputTokens()).isEqualTo(120);
    assertThat(c.outputTokens()).isEqualTo(30);
    ChatRequest sent = model.requests.get(0);
    assertThat(sent.messages())
        .containsExactly(SystemMessage.from(Fixtures.SYSTEM), UserMessage.from(Fixtures.USER));
    assertThat(sent.maxOutputTokens()).isEqualTo(512);
    assertThat(sent.temperature()).isEqualTo(0.0);
    ResponseFormat format = sent.responseFormat();
    assertThat(format.jsonSchema().name()).isEqualTo("facts");
    String raw = ((JsonRawSchema) format.jsonSchema().rootElement()).schema();
    assertThat(readTree(raw)).isEqualTo(Fixtures.schemaJson());
  }

  @Test
  void modelWithoutSchemaSupportGetsJsonModeAndNoneGetsNoFormat() {
    FakeModel plain = new FakeModel(Set.of(), r -> answer("{}", null));
    ChatModelLanguageModel.of(plain, "fake/m").complete(Fixtures.jsonPrompt());
    ChatModelLanguageModel.builder(plain, "fake/m")
        .structuredOutput(StructuredOutput.NONE)
        .build()
        .complete(Fixtures.jsonPrompt());
    ChatModelLanguageModel.of(plain, "fake/m").complete(Fixtures.textPrompt());

    assertThat(plain.requests.get(0).responseFormat()).isEqualTo(ResponseFormat.JSON);
    assertThat(plain.requests.get(1).responseFormat()).isNull();
    assertThat(plain.requests.get(2).responseFormat()).isNull();
  }

  @Test
  void blankSystemMessageIsLeftOutAndMissingUsageCountsZero() {
    FakeModel model = new FakeModel(Set.of(), r -> answer("ok", null));

    var c =
        ChatModelLanguageModel.of(model, "fake/m")
            .complete(new Prompt(" ", "hello", null, null, 10, 0.5));

    assertThat(model.requests.get(0).messages()).containsExactly(UserMessage.from("hello"));
    assertThat(c.inputTokens()).isZero();
    assertThat(c.outputTokens()).isZero();
  }

  @Test
  void answerWithoutTextIsAnInvalidResponse() {
    FakeModel model =
        new FakeModel(
            Set.of(),
            r ->
                ChatResponse.builder()
                    .aiMessage(AiMessage.builder().toolExecutionRequests(List.of()).build())
                    .build());

    assertThatThrownBy(
            () -> ChatModelLanguageModel.of(model, "fake/m").complete(Fixtures.textPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.INVALID_RESPONSE);
              assertThat(e.getMessage()).startsWith("fake/m: the answer has no text");
            });
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(new RateLimitException("slow down"), Kind.RATE_LIMITED),
        Arguments.of(new InternalServerException("boom"), Kind.SERVER_ERROR),
        Arguments.of(new TimeoutException("late"), Kind.TIMEOUT),
        Arguments.of(new AuthenticationException("who are you"), Kind.AUTHENTICATION),
        Arguments.of(new InvalidRequestException("bad"), Kind.BAD_REQUEST),
        Arguments.of(new ContentFilteredException("filtered"), Kind.BAD_REQUEST),
        Arguments.of(new HttpException(503, "unavailable"), Kind.SERVER_ERROR),
        Arguments.of(new HttpException(529, "overloaded"), Kind.SERVER_ERROR),
        Arguments.of(new HttpException(408, "request timeout"), Kind.TIMEOUT),
        Arguments.of(new HttpException(422, "unprocessable"), Kind.BAD_REQUEST),
        Arguments.of(new RateLimitException(new HttpException(429, "quota")), Kind.RATE_LIMITED),
        Arguments.of(
            new LangChain4jException(new SocketTimeoutException("Read timed out")), Kind.TIMEOUT),
        Arguments.of(new UncheckedIOException(new IOException("connection reset")), Kind.TIMEOUT),
        Arguments.of(new IllegalStateException("adapter bug"), Kind.BAD_REQUEST));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("failures")
  void langChain4jFailuresMapToKinds(RuntimeException failure, Kind kind) {
    FakeModel model =
        new FakeModel(
            Set.of(),
            r -> {
              throw failure;
            });

    assertThatThrownBy(
            () -> ChatModelLanguageModel.of(model, "fake/m").complete(Fixtures.textPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e.getMessage()).startsWith("fake/m: ");
            });
  }

  @Test
  void redactedSecretsNeverReachMessagesOrCauses() {
    FakeModel model =
        new FakeModel(
            Set.of(),
            r -> {
              throw new AuthenticationException(new HttpException(401, "bad key " + Fixtures.KEY));
            });
    ChatModelLanguageModel lm =
        ChatModelLanguageModel.builder(model, "fake/m").redact(Fixtures.KEY).build();

    assertThatThrownBy(() -> lm.complete(Fixtures.textPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.getMessage())
                  .isEqualTo(
                      "fake/m: authentication failed (check the API key variable)"
                          + " (HTTP 401): bad key ***");
              assertThat(ErrorMappingWireTest.chainText(e)).doesNotContain(Fixtures.KEY);
            });
  }

  @Test
  void overridesReplaceThePromptsTemperatureAndTokenLimit() {
    FakeModel model = new FakeModel(Set.of(), r -> answer("ok", null));
    ChatModelLanguageModel.builder(model, "fake/m")
        .temperature(1.0)
        .maxOutputTokens(2048)
        .build()
        .complete(Fixtures.textPrompt());

    assertThat(model.requests.get(0).temperature()).isEqualTo(1.0);
    assertThat(model.requests.get(0).maxOutputTokens()).isEqualTo(2048);
  }

  private static com.fasterxml.jackson.databind.JsonNode readTree(String json) {
    try {
      return StubServer.JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
