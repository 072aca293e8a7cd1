/**
 * <b>SPI.</b> The interfaces between the engine and what plugs into it: storage ({@link
 * dev.engram.spi.Storage}, {@link dev.engram.spi.StorageFactory}, {@link
 * dev.engram.spi.MemoryStore}, {@link dev.engram.spi.SearchIndex}, {@link
 * dev.engram.spi.GraphStore}), models ({@link dev.engram.spi.Embedder}, {@link
 * dev.engram.spi.LanguageModel}) and pipeline steps ({@link dev.engram.spi.MemoryInference}, ...).
 * For implementers of backends and providers; applications pass implementations to {@code
 * Engram.builder()} and call none of them. Every backend runs the contract suites of engram-core's
 * test-jar ({@code dev.engram.testing}).
 */
package dev.engram.spi;
