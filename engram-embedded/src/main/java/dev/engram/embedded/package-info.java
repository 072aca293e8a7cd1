/**
 * <b>Public API.</b> The embedded default storage: {@link dev.engram.embedded.EmbeddedStorage}
 * ({@code EmbeddedStorage.at(path)} for {@code Engram.builder().storage(...)}), the SQLite record
 * and the Lucene index in one locked data directory. {@link
 * dev.engram.embedded.DefaultEmbeddedStorageProvider} registers it for {@code
 * Engram.embedded(path)}.
 */
package dev.engram.embedded;
