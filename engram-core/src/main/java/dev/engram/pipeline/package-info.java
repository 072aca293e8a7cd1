/**
 * <b>Public API.</b> The language-model pipelines passed to {@code Engram.builder()}: {@link
 * dev.engram.pipeline.ConsolidatingInference}, {@link dev.engram.pipeline.AdditiveInference}, {@link
 * dev.engram.pipeline.LlmSummarizer}, {@link dev.engram.pipeline.LlmGraphExtractor}, {@link
 * dev.engram.pipeline.ProceduralMemory} with {@link dev.engram.pipeline.PipelineOptions} and {@link
 * dev.engram.pipeline.RetryPolicy}. <b>Internal</b> (public only for Engram's own modules, may change in any
 * release): {@code ModelCaller}, {@code ModelMetrics}, {@code JsonAnswers}, {@code Prompts}, {@code Schemas}.
 */
package dev.engram.pipeline;
