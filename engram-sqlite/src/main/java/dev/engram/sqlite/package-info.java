/**
 * <b>Internal.</b> The SQLite system of record and graph store that {@link dev.engram.spi.Storage}
 * implementations build on; applications open them through {@code EmbeddedStorage} and use only
 * {@link dev.engram.sqlite.Durability} (public API) from this package.
 */
package dev.engram.sqlite;
