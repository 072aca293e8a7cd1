/**
 * <b>Public API.</b> {@link dev.engram.server.EngramServer}: mem0's REST APIs over a {@link
 * dev.engram.Memory}, with {@link dev.engram.server.ServerSettings}. Its subpackages are internal.
 */
package dev.engram.server;
