/**
 * <b>Public API.</b> The filter language: {@link dev.engram.filter.Filters} (the typed Java form),
 * {@link dev.engram.filter.Mem0Filters} (mem0's JSON form), the {@link dev.engram.filter.Filter}
 * tree both produce and its reference semantics {@link dev.engram.filter.FilterEvaluator}.
 */
package dev.engram.filter;
