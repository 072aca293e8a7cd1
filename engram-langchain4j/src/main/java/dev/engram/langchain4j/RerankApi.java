package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The rerank endpoints {@link RerankApiScoringModel} speaks: where each lives and its request and
 * reply shapes. All take a query and a list of documents and answer a relevance score in [0, 1] per
 * document index.
 */
public enum RerankApi {
  /**
   * Cohere's {@code POST /v2/rerank}: {@code {model, query, documents, top_n}}, reply {@code
   * results}.
   */
  COHERE("https://api.cohere.com", "v2", "rerank-v3.5", "COHERE_API_KEY", "top_n", "results"),
  /**
   * Jina AI's {@code POST /v1/rerank}: {@code {model, query, documents, top_n, return_documents}},
   * reply {@code results}.
   */
  JINA(
      "https://api.jina.ai",
      "v1",
      "jina-reranker-v2-base-multilingual",
      "JINA_API_KEY",
      "top_n",
      "results"),
  /**
   * Voyage AI's {@code POST /v1/rerank}: {@code {model, query, documents, top_k,
   * return_documents}}, reply {@code data}.
   */
  VOYAGE("https://api.voyageai.com", "v1", "rerank-2.5", "VOYAGE_API_KEY", "top_k", "data");

  private final String defaultUrl;
  private final String version;
  private final String defaultModel;
  private final String defaultApiKeyEnv;
  private final String countField;
  private final String resultsField;

  RerankApi(
      String defaultUrl,
      String version,
      String defaultModel,
      String defaultApiKeyEnv,
      String countField,
      String resultsField) {
    this.defaultUrl = defaultUrl;
    this.version = version;
    this.defaultModel = defaultModel;
    this.defaultApiKeyEnv = defaultApiKeyEnv;
    this.countField = countField;
    this.resultsField = resultsField;
  }

  /** The provider's public endpoint. */
  public String defaultUrl() {
    return defaultUrl;
  }

  public String defaultModel() {
    return defaultModel;
  }

  public String defaultApiKeyEnv() {
    return defaultApiKeyEnv;
  }

  /** The spelling in files and model ids, for example {@code cohere}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The endpoint under {@code baseUrl}: the server root ({@code https://api.cohere.com}) gets
   * {@code /v2/rerank} (Cohere) or {@code /v1/rerank}; a base URL that already ends with a version
   * ({@code .../v1}) gets {@code /rerank}.
   */
  String endpoint(String baseUrl) {
    String base = baseUrl.trim().replaceAll("/+$", "");
    return base.matches(".*/v\\d+$") ? base + "/rerank" : base + "/" + version + "/rerank";
  }

  /** The request body; every document is scored ({@code top_n}/{@code top_k} is their count). */
  ObjectNode request(String model, String query, List<String> documents) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("model", model);
    o.put("query", query);
    ArrayNode docs = o.putArray("documents");
    documents.forEach(docs::add);
    o.put(countField, documents.size());
    if (this != COHERE) {
      o.put("return_documents", false);
    }
    return o;
  }

  /** The reply's results, each {@code {index, relevance_score}}. */
  JsonNode results(JsonNode reply) {
    return reply.path(resultsField);
  }

  /** Jackson for the wire. */
  static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}
  }
}
