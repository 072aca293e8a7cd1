package dev.engram.spi;

/**
 * Found with {@link java.util.ServiceLoader}: the embedder {@code Engram.builder()} uses when none
 * is configured (one implementation, in {@code engram-onnx}: the in-process bge-small-en-v1.5-q
 * model, no network, no key).
 */
public interface DefaultEmbedderProvider {
  /** The default embedder; the same shared instance on every call. */
  Embedder defaultEmbedder();
}
