package dev.engram;

/** The configured embedder does not match the embeddings already stored in a data directory. */
public class DimensionMismatchException extends EngramException {
  public DimensionMismatchException(String message) {
    super(message);
  }
}
