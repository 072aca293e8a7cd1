/**
 * <b>Internal.</b> HTTP plumbing of {@code EngramServer} (routes, bodies, errors). Not part of the
 * public API.
 */
package dev.engram.server.http;
