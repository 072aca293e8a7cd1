/** <b>Internal.</b> The pipeline cost benchmark. Not part of the public API. */
package dev.engram.bench.pipeline;
