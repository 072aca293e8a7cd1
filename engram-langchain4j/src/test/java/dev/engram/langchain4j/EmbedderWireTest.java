package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.EngramException;
import dev.engram.spi.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The OpenAI and Ollama embedders against a stub that checks what goes over the wire. */
class EmbedderWireTest extends WireTestCase {
  private static String openAiEmbeddings(String... vectors) {
    StringBuilder data = new StringBuilder();
    for (int i = 0; i < vectors.length; i++) {
      data.append(i == 0 ? "" : ",")
          .append("{\"object\":\"embedding\",\"index\":")
          .append(i)
          .append(",\"embedding\":")
          .append(vectors[i])
          .append('}');
    }
    return "{\"object\":\"list\",\"data\":["
        + data
        + "],\"model\":\"text-embedding-3-small\","
        + "\"usage\":{\"prompt_tokens\":12,\"total_tokens\":12}}";
  }

  @Test
  void openAiEmbedderSendsModelDimensionsAndKeyAndReturnsVectorsInOrder() {
    stub.reply(200, openAiEmbeddings("[0.6,0.8,0.0]", "[0.0,0.6,0.8]"));
    stub.reply(200, openAiEmbeddings("[1.0,0.0,0.0]"));
    Embedder e =
        Providers.openAiEmbedder(
            ModelSettings.builder("text-embedding-3-small")
                .baseUrl(stub.url("/v1"))
                .apiKey(Fixtures.KEY)
                .dimensions(3)
                .queryPrefix("query: ")
                .build());

    assertThat(e.modelId()).isEqualTo("openai/text-embedding-3-small@3");
    assertThat(e.dimension()).isEqualTo(3);
    List<float[]> docs = e.embedDocuments(List.of("Caroline adopted a puppy.", "Melanie paints."));
    float[] query = e.embedQuery("Who has a dog?");

    assertThat(docs).hasSize(2);
    assertThat(docs.get(0)).containsExactly(0.6f, 0.8f, 0.0f);
    assertThat(docs.get(1)).containsExactly(0.0f, 0.6f, 0.8f);
    assertThat(query).containsExactly(1.0f, 0.0f, 0.0f);
    List<StubServer.Recorded> requests = stub.requests();
    assertThat(requests)
        .hasSize(2)
        .allSatisfy(
            r -> {
              assertThat(r.path()).isEqualTo("/v1/embeddings");
              assertThat(r.header("Authorization")).isEqualTo("Bearer " + Fixtures.KEY);
              assertThat(r.json().get("model").asText()).isEqualTo("text-embedding-3-small");
              assertThat(r.json().get("dimensions").asInt()).isEqualTo(3);
            });
    assertThat(requests.get(0).json().get("input").toString())
        .isEqualTo("[\"Caroline adopted a puppy.\",\"Melanie paints.\"]");
    assertThat(requests.get(1).json().get("input").toString())
        .isEqualTo("[\"query: Who has a dog?\"]");
  }

  @Test
  void ollamaEmbedderAsksTheServerForTheDimensionThenEmbeds() {
    String reply =
        "{\"model\":\"nomic-embed-text\",\"embeddings\":[[0.1,0.2,0.3,0.4]],\"total_duration\":14143917,"
            + "\"load_duration\":1019500,\"prompt_eval_count\":8}";
    stub.reply(200, reply);
    stub.reply(200, reply);
    Embedder e =
        Providers.ollamaEmbedder(
            ModelSettings.builder("nomic-embed-text").baseUrl(stub.url("")).build());

    assertThat(e.modelId()).isEqualTo("ollama/nomic-embed-text");
    assertThat(e.dimension()).isEqualTo(4);
    assertThat(e.embedQuery("Who has a dog?")).containsExactly(0.1f, 0.2f, 0.3f, 0.4f);
    assertThat(stub.requests())
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.path()).isEqualTo("/api/embed"));
    JsonNode last = stub.requests().get(1).json();
    assertThat(last.get("model").asText()).isEqualTo("nomic-embed-text");
    assertThat(last.get("input").toString()).isEqualTo("[\"Who has a dog?\"]");
  }

  @Test
  void embedderFailureNamesTheModelAndHidesTheKey() {
    stub.reply(
        401,
        Fixtures.openAiError(
            "Incorrect API key provided: " + Fixtures.KEY,
            "invalid_request_error",
            "invalid_api_key"));
    Embedder e =
        Providers.openAiEmbedder(
            ModelSettings.builder("text-embedding-3-small")
                .baseUrl(stub.url("/v1"))
                .apiKey(Fixtures.KEY)
                .dimensions(2)
                .build());

    assertThatThrownBy(() -> e.embedQuery("x"))
        .isInstanceOf(EngramException.class)
        .hasMessageContaining(
            "openai/text-embedding-3-small@2", "HTTP 401", "Incorrect API key provided: ***")
        .satisfies(t -> assertThat(ErrorMappingWireTest.chainText(t)).doesNotContain(Fixtures.KEY));
    assertThat(stub.requests()).hasSize(1);
  }
}
