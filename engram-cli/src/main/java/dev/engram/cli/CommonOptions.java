package dev.engram.cli;

import dev.engram.onnx.OnnxEmbedders;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Options every subcommand takes: where the data lives, the output form, and the embedding model.
 */
public final class CommonOptions {
  /** The environment variable that overrides the default data directory. */
  public static final String DATA_DIR_ENV = "ENGRAM_DATA_DIR";

  /**
   * The data directory used when neither {@code --data-dir} nor {@value #DATA_DIR_ENV} is given.
   */
  public static final String DEFAULT_DATA_DIR = "engram-data";

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Data directory (default: $"
              + DATA_DIR_ENV
              + " if set, else "
              + DEFAULT_DATA_DIR
              + " in the working directory).")
  Path dataDir;

  @Option(
      names = "--json",
      description = "Print machine-readable JSON (mem0's shapes) instead of text.")
  boolean json;

  @Option(
      names = "--embedder",
      paramLabel = "MODEL",
      description =
          "In-process embedding model: bge-small-en-v1.5-q or all-minilm-l6-v2-q (default: engram.yaml's"
              + " embedder, else "
              + OnnxEmbedders.DEFAULT
              + ").")
  String embedder;

  /**
   * The data directory: {@code --data-dir}, else the environment variable, else {@code
   * ./engram-data}. Commands that open a memory use {@link #explicitDataDir()} and otherwise the
   * settings ({@code engram.yaml}, environment), which fall back to the same default.
   */
  public Path dataDir() {
    if (dataDir != null) {
      return dataDir;
    }
    String env = System.getenv(DATA_DIR_ENV);
    return Path.of(env == null || env.isBlank() ? DEFAULT_DATA_DIR : env.trim());
  }

  /** The data directory given with {@code --data-dir}, if any. */
  public Optional<Path> explicitDataDir() {
    return Optional.ofNullable(dataDir);
  }

  /** True if {@code --json} was given. */
  public boolean json() {
    return json;
  }

  /**
   * The in-process embedding model given with {@code --embedder}, if any (see {@code
   * OnnxEmbedders.names()}).
   */
  public Optional<String> embedder() {
    return Optional.ofNullable(embedder);
  }
}
