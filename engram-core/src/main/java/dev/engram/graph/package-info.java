/**
 * <b>Public API.</b> The graph memory model, used by {@link dev.engram.Memory} and {@link
 * dev.engram.spi.GraphStore}.
 *
 * <p>The graph memory model (Mem0g): entities, relations with event and system time, the changes
 * one operation writes, and the time views reads use. Stores implement {@link
 * dev.engram.spi.GraphStore}.
 */
package dev.engram.graph;
