/**
 * <b>Public API.</b> The server's API keys and add events in PostgreSQL, shared by every {@code
 * engram serve} on one database: {@link dev.engram.server.postgres.PostgresServerStores} ({@code
 * keys()}, {@code events()}). The store classes are internal (public for the server's wiring).
 */
package dev.engram.server.postgres;
