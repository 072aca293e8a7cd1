package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.output.TokenUsage;
import dev.langchain4j.model.scoring.ScoringModel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A LangChain4j {@link ScoringModel} over a hosted rerank endpoint (Cohere, Jina AI, Voyage AI, or
 * a server that speaks one of their formats, such as a self-hosted reranker behind {@code
 * base_url}), with the JDK HTTP client: one call scores every document. Failures throw {@link
 * LanguageModelException} with the kind of the HTTP status (429 rate limited, 401/403
 * authentication, 5xx server error, other 4xx bad request), or of the I/O failure (timeout); the
 * API key is sent as a bearer token and never appears in a message. No retries: a search waits for
 * one call at most. Thread-safe.
 */
public final class RerankApiScoringModel implements ScoringModel {
  private final RerankApi api;
  private final ModelSettings settings;
  private final URI endpoint;
  private final HttpClient http;

  /**
   * @param api the wire format
   * @param settings model name, base URL (empty for the provider's public endpoint), API key and
   *     timeout
   */
  public RerankApiScoringModel(RerankApi api, ModelSettings settings) {
    this.api = Objects.requireNonNull(api, "api");
    this.settings = Objects.requireNonNull(settings, "settings");
    String base = settings.baseUrl().orElse(api.defaultUrl());
    this.endpoint = URI.create(api.endpoint(base));
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(settings.timeout());
    if (base.startsWith("http://")) {
      b.version(HttpClient.Version.HTTP_1_1);
    }
    this.http = b.build();
  }

  /** {@code cohere/rerank-v3.5}. */
  public String modelId() {
    return api.configName() + "/" + settings.model();
  }

  @Override
  public Response<List<Double>> scoreAll(List<TextSegment> segments, String query) {
    if (segments.isEmpty()) {
      return Response.from(List.of());
    }
    List<String> docs = segments.stream().map(TextSegment::text).toList();
    String body = api.request(settings.model(), query, docs).toString();
    HttpRequest.Builder req =
        HttpRequest.newBuilder(endpoint)
            .timeout(settings.timeout())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    settings.apiKey().ifPresent(k -> req.header("Authorization", "Bearer " + k));
    HttpResponse<String> reply;
    try {
      reply = http.send(req.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw failure(
          Kind.TIMEOUT,
          "no answer in time or connection failed (" + e.getClass().getSimpleName() + ")",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure(Kind.TIMEOUT, "interrupted", e);
    }
    if (reply.statusCode() / 100 != 2) {
      throw failure(
          ModelErrors.kindOfStatus(reply.statusCode()),
          "HTTP " + reply.statusCode() + ": " + detail(reply.body()),
          null);
    }
    return Response.from(read(reply.body(), docs.size()), usage(reply.body()));
  }

  private List<Double> read(String body, int n) {
    JsonNode results;
    try {
      results = api.results(RerankApi.Json.MAPPER.readTree(body));
    } catch (IOException e) {
      throw failure(Kind.INVALID_RESPONSE, "the reply is not JSON: " + detail(body), null);
    }
    if (!results.isArray()) {
      throw failure(Kind.INVALID_RESPONSE, "the reply has no results: " + detail(body), null);
    }
    Double[] scores = new Double[n];
    for (JsonNode r : results) {
      int i = r.path("index").asInt(-1);
      JsonNode s = r.get("relevance_score");
      if (i < 0 || i >= n || s == null || !s.isNumber()) {
        throw failure(
            Kind.INVALID_RESPONSE,
            "a result without a valid index and relevance_score: " + detail(r.toString()),
            null);
      }
      scores[i] = s.asDouble();
    }
    if (Arrays.asList(scores).contains(null)) {
      throw failure(
          Kind.INVALID_RESPONSE,
          "the reply scores " + results.size() + " of " + n + " documents",
          null);
    }
    return new ArrayList<>(Arrays.asList(scores));
  }

  private static TokenUsage usage(String body) {
    try {
      JsonNode u = RerankApi.Json.MAPPER.readTree(body).path("usage").path("total_tokens");
      return u.isNumber() ? new TokenUsage(u.asInt(), 0) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private LanguageModelException failure(Kind kind, String detail, Throwable cause) {
    String message =
        ModelErrors.redact(
            modelId()
                + " rerank failed, "
                + kind.name().toLowerCase(java.util.Locale.ROOT)
                + ": "
                + detail,
            secrets());
    return new LanguageModelException(kind, message, cause == null || leaks(cause) ? null : cause);
  }

  private boolean leaks(Throwable cause) {
    String m = String.valueOf(cause.getMessage());
    return !ModelErrors.redact(m, secrets()).equals(m);
  }

  private List<String> secrets() {
    return settings.apiKey().map(List::of).orElse(List.of());
  }

  private String detail(String body) {
    String b = Optional.ofNullable(body).orElse("").replaceAll("\\s+", " ").trim();
    return b.length() > ModelErrors.MAX_DETAIL ? b.substring(0, ModelErrors.MAX_DETAIL) + "..." : b;
  }
}
