/**
 * <b>Internal.</b> mem0's JSON shapes of memories, messages and export files, shared by Engram's
 * surfaces (server, client, command line). Not part of the public API: may change in any release.
 */
package dev.engram.json;
