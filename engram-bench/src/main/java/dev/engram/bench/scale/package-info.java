/** <b>Internal.</b> The scale benchmark. Not part of the public API. */
package dev.engram.bench.scale;
