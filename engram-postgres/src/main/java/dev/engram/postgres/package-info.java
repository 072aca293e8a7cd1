/**
 * <b>Public API.</b> The PostgreSQL storage: {@link dev.engram.postgres.PostgresStorage} ({@code
 * PostgresStorage.with(settings)} for {@code Engram.builder().storage(...)}) and {@link
 * dev.engram.postgres.PostgresSettings}. {@code PostgresMemoryStore} is internal (public for the
 * storage's wiring).
 */
package dev.engram.postgres;
