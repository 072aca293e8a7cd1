/** <b>Internal.</b> The REST routes of {@code EngramServer}. Not part of the public API. */
package dev.engram.server.api;
