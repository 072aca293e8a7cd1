/**
 * Query analysis: the language of a search's query behind one interface ({@link
 * dev.engram.analysis.QueryAnalyzer}), with English ({@link
 * dev.engram.analysis.EnglishQueryAnalyzer}) the default, so that the engine holds no word lists of
 * its own.
 */
package dev.engram.analysis;
