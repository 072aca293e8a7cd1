/**
 * <b>Public API.</b> The in-process ONNX embedders ({@link dev.engram.onnx.OnnxEmbedders}) and the
 * adapter of any LangChain4j {@code EmbeddingModel} to Engram's {@link dev.engram.spi.Embedder}
 * ({@link dev.engram.onnx.LangChain4jEmbedder}, also used by the remote providers of {@code
 * engram-langchain4j}).
 */
package dev.engram.onnx;
