/**
 * <b>Internal.</b> Not part of the public API.
 *
 * <p>LLM metrics of the LoCoMo harness: answer generation from retrieved memories ({@link
 * dev.engram.bench.answer.Answerer}), the binary LLM judge ({@link dev.engram.bench.answer.Judge}),
 * token F1 and BLEU-1 as the Mem0 harness computes them ({@link
 * dev.engram.bench.answer.AnswerMetrics}), an on-disk response cache ({@link
 * dev.engram.bench.answer.ResponseCache}) and the concurrent evaluation that ties them together
 * ({@link dev.engram.bench.answer.AnswerEvaluation}).
 */
package dev.engram.bench.answer;
