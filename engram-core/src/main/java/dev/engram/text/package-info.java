/**
 * <b>Internal.</b> Text structure for the engine's own use: {@link dev.engram.text.Passages} splits
 * a long text into {@link dev.engram.text.Passage}s that each fit an embedder's window, cutting
 * where the text's own structure allows (paragraphs, lines, sentences, words) and never inside a
 * fenced code block or a list item when that can be avoided; {@link dev.engram.text.CodeFences}
 * finds those blocks, for it and for the offline extractor, which keeps their lines as written;
 * {@link dev.engram.text.SymbolFolding} reads a passage's symbols as spaces for its embedding. Not
 * part of the public API: may change in any release.
 */
package dev.engram.text;
