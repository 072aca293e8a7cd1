package dev.engram;

/**
 * A reranker could not score a search's candidates: its provider failed, timed out or answered
 * something unusable. The engine catches it, logs it at WARN and returns the fused order without
 * rerank scores (mem0 does the same), so a search never fails because of its reranker; callers of a
 * {@code Reranker} directly see it thrown.
 */
public class RerankerException extends EngramException {
  public RerankerException(String message) {
    super(message);
  }

  public RerankerException(String message, Throwable cause) {
    super(message, cause);
  }
}
