package dev.engram.langchain4j;

import dev.engram.EngramException;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.util.List;

/**
 * An {@link EmbeddingModel} whose failures carry no secret: a server that echoes the API key in its
 * error body (some do) cannot leak it into logs through {@link
 * dev.engram.onnx.LangChain4jEmbedder}'s messages. Errors are rethrown as {@link EngramException}
 * with the HTTP status and the provider's message, the key replaced by {@code ***}.
 */
final class RedactingEmbeddingModel implements EmbeddingModel {
  private final EmbeddingModel delegate;
  private final String modelId;
  private final List<String> secrets;

  RedactingEmbeddingModel(EmbeddingModel delegate, String modelId, List<String> secrets) {
    this.delegate = delegate;
    this.modelId = modelId;
    this.secrets = List.copyOf(secrets);
  }

  @Override
  public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
    try {
      return delegate.embedAll(segments);
    } catch (RuntimeException e) {
      throw clean(e);
    }
  }

  @Override
  public Response<Embedding> embed(String text) {
    try {
      return delegate.embed(text);
    } catch (RuntimeException e) {
      throw clean(e);
    }
  }

  @Override
  public Response<Embedding> embed(TextSegment segment) {
    try {
      return delegate.embed(segment);
    } catch (RuntimeException e) {
      throw clean(e);
    }
  }

  @Override
  public int dimension() {
    try {
      return delegate.dimension();
    } catch (RuntimeException e) {
      throw clean(e);
    }
  }

  @Override
  public String modelName() {
    return delegate.modelName();
  }

  private EngramException clean(RuntimeException e) {
    RuntimeException mapped = ModelErrors.map(e, modelId, secrets);
    return new EngramException(mapped.getMessage(), mapped.getCause());
  }
}
