/**
 * <b>Internal.</b> The engine behind {@link dev.engram.Memory}: add and search paths, index
 * synchronisation and repair, locks, export and import. Not part of the public API: its classes may
 * change in any release; open a memory with {@link dev.engram.Engram} instead.
 */
package dev.engram.engine;
