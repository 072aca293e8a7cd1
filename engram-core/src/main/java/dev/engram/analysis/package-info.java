/**
 * <b>Internal.</b> Query analysis, as Lucene puts language behind its {@code Analyzer}: a {@link
 * dev.engram.analysis.QueryAnalyzer} reads a search query's keywords (without its question words),
 * the names it mentions and the periods it names; {@link dev.engram.analysis.EnglishQueryAnalyzer},
 * the default, holds the English word lists, so the engine holds none of its own. Not yet a setting
 * of {@link dev.engram.Engram.Builder}: its interface may change in any release.
 */
package dev.engram.analysis;
