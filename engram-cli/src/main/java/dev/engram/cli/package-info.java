/**
 * <b>Internal.</b> The {@code engram} command (an application, not a library). Not part of the
 * public API.
 */
package dev.engram.cli;
