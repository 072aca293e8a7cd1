/**
 * <b>Public API.</b> The language-model pipelines passed to {@code Engram.builder()}: {@link
 * dev.engram.pipeline.ConsolidatingInference}, {@link dev.engram.pipeline.AdditiveInference},
 * {@link dev.engram.pipeline.LlmSummarizer}, {@link dev.engram.pipeline.LlmGraphExtractor}, {@link
 * dev.engram.pipeline.ProceduralMemory}, built over a {@link dev.engram.pipeline.ModelCaller} (a
 * language model with its {@link dev.engram.pipeline.RetryPolicy} and {@link
 * dev.engram.pipeline.ModelMetrics}) and {@link dev.engram.pipeline.PipelineOptions}.
 * <b>Internal</b> (public only for Engram's own modules, may change in any release): {@code
 * JsonAnswers}, {@code Prompts}; the rest is package-private.
 */
package dev.engram.pipeline;
