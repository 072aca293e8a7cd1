package dev.engram.cli;

import dev.engram.bench.scale.HashingEmbedder;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The embedders the benchmark commands offer: the cheap hashing one, or the default in-process
 * model.
 */
enum BenchEmbedder {
  /** Feature hashing, no model ({@link HashingEmbedder}). */
  HASH,
  /** The default in-process ONNX model ({@link OnnxEmbedders#DEFAULT}). */
  ONNX;

  /** A new embedder of this kind. */
  Embedder create() {
    return this == ONNX ? OnnxEmbedders.defaultEmbedder() : HashingEmbedder.create();
  }

  /** Accepts {@code hash} or {@code onnx} in any case. */
  static final class Converter implements ITypeConverter<BenchEmbedder> {
    @Override
    public BenchEmbedder convert(String value) {
      try {
        return BenchEmbedder.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("expected hash or onnx, got '" + value + "'");
      }
    }
  }
}
