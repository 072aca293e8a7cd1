/**
 * <b>Internal.</b> {@code server.db}: keys and events of {@code EngramServer}. Not part of the
 * public API.
 */
package dev.engram.server.store;
