/**
 * <b>Public API.</b> Query analysis, as Lucene puts language behind its {@code Analyzer}: a {@link
 * dev.engram.analysis.QueryAnalyzer} reads a search query's keywords (without its question words),
 * the names it mentions and the periods it names; {@link
 * dev.engram.analysis.QueryAnalyzer#english()}, the default, holds the English word lists, so the
 * engine holds none of its own. Another language's analyzer is given to {@link
 * dev.engram.Engram.Builder#queryAnalyzer}.
 */
package dev.engram.analysis;
