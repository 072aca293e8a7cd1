/** <b>Internal.</b> The server benchmark. Not part of the public API. */
package dev.engram.bench.server;
