/** <b>Internal.</b> The LoCoMo harness. Not part of the public API. */
package dev.engram.bench.locomo;
