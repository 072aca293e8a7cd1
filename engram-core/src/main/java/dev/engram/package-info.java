/**
 * <b>Public API.</b> The memory API of Engram: {@link dev.engram.Engram} (the entry point: {@code
 * Engram.embedded(path)} and {@code Engram.builder()}), {@link dev.engram.Memory}, the request and
 * result records and the typed exceptions. Stable across minor releases.
 */
package dev.engram;
