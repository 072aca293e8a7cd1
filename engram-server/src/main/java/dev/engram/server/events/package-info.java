/**
 * <b>Internal.</b> The durable asynchronous add events of {@code EngramServer}. Not part of the
 * public API.
 */
package dev.engram.server.events;
