/**
 * <b>Public API.</b> The offline pipeline (no language model): {@link
 * dev.engram.extract.OfflineExtractor}, the default inference, and {@link
 * dev.engram.extract.OfflineGraphExtractor}. Every other class of the package is package-private.
 */
package dev.engram.extract;
