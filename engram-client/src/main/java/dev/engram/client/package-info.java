/**
 * <b>Public API.</b> The {@link dev.engram.Memory} API over {@code engram serve}: {@link
 * dev.engram.client.EngramClient}. Other classes are internal.
 */
package dev.engram.client;
