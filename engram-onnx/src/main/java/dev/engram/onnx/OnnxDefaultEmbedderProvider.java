package dev.engram.onnx;

import dev.engram.spi.DefaultEmbedderProvider;
import dev.engram.spi.Embedder;

/**
 * Registers {@link OnnxEmbedders#defaultEmbedder()} (bge-small-en-v1.5-q) as the embedder {@code
 * Engram.builder()} uses when none is configured (found with {@link java.util.ServiceLoader}).
 */
public final class OnnxDefaultEmbedderProvider implements DefaultEmbedderProvider {
  /** For {@link java.util.ServiceLoader}. */
  public OnnxDefaultEmbedderProvider() {}

  @Override
  public Embedder defaultEmbedder() {
    return OnnxEmbedders.defaultEmbedder();
  }
}
