package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.engram.spi.LanguageModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HTTP failures of an OpenAI-compatible server become typed errors at once (one request: no retries
 * inside the adapter), and the API key appears in no message even when the server echoes it.
 */
class ErrorMappingWireTest extends WireTestCase {
  private LanguageModel model(Duration timeout) {
    return Providers.openAi(
        ModelSettings.builder("gpt-4o-mini")
            .baseUrl(stub.url("/v1"))
            .apiKey(Fixtures.KEY)
            .timeout(timeout)
            .build());
  }

  /** Every message and stack trace line of an exception and its causes. */
  static String chainText(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  @ParameterizedTest(name = "HTTP {0} -> {1}")
  @CsvSource({
    "429, RATE_LIMITED, true, rate_limit_exceeded",
    "500, SERVER_ERROR, true, server_error",
    "502, SERVER_ERROR, true, bad_gateway",
    "503, SERVER_ERROR, true, overloaded",
    "401, AUTHENTICATION, false, invalid_api_key",
    "403, AUTHENTICATION, false, unsupported_country_region_territory",
    "400, BAD_REQUEST, false, context_length_exceeded",
    "404, BAD_REQUEST, false, model_not_found"
  })
  void statusMapsToKind(int status, Kind kind, boolean retryable, String code) {
    stub.reply(
        status,
        Fixtures.openAiError(
            "Request failed (" + code + ") for key " + Fixtures.KEY,
            "invalid_request_error",
            code));

    assertThatThrownBy(() -> model(Duration.ofSeconds(10)).complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e.retryable()).isEqualTo(retryable);
              assertThat(e.getMessage())
                  .startsWith("openai/gpt-4o-mini: ")
                  .contains("HTTP " + status, code, "for key ***");
              assertThat(chainText(e)).doesNotContain(Fixtures.KEY);
            });
    assertThat(stub.single().path()).isEqualTo("/v1/chat/completions");
    assertThat(stub.single().header("Authorization")).isEqualTo("Bearer " + Fixtures.KEY);
  }

  @Test
  void serverSlowerThanTheTimeoutIsATimeout() {
    stub.hang();

    assertThatThrownBy(() -> model(Duration.ofMillis(300)).complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
              assertThat(e.retryable()).isTrue();
              assertThat(e.getMessage())
                  .startsWith("openai/gpt-4o-mini: ")
                  .doesNotContain(Fixtures.KEY);
            });
    assertThat(stub.requests()).hasSize(1);
  }

  @Test
  void refusedConnectionIsATimeoutKind() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    LanguageModel m =
        Providers.openAi(
            ModelSettings.builder("gpt-4o-mini")
                .baseUrl("http://127.0.0.1:" + closedPort + "/v1")
                .apiKey(Fixtures.KEY)
                .build());

    assertThatThrownBy(() -> m.complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT));
  }

  @Test
  void answerThatIsNotJsonIsAnInvalidResponse() {
    stub.reply(200, "<html><body>502 Bad Gateway</body></html>");

    assertThatThrownBy(() -> model(Duration.ofSeconds(10)).complete(Fixtures.jsonPrompt()))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_RESPONSE));
  }
}
