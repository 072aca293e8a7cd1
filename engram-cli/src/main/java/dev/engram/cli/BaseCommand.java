package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Engram;
import dev.engram.EngramException;
import dev.engram.Memory;
import dev.engram.SuppressForbidden;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.langchain4j.PipelineAssembly;
import dev.engram.langchain4j.SettingsLoader;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The frame of every subcommand: the common options, output streams, opening the memory, and the
 * mapping of failures to exit codes ({@value #EXIT_BAD_INPUT} for bad input, {@value #EXIT_FAILURE}
 * for anything else, with a one-line message on stderr and no stack trace).
 */
abstract class BaseCommand implements Callable<Integer> {
  static final int EXIT_OK = 0;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_BAD_INPUT = 2;

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  /**
   * The command's one clock: the memory it opens and the times it writes (an export's header) read
   * it. The system clock, in UTC: the command line is the application that chooses it.
   */
  @SuppressForbidden(reason = "the command line's composition root chooses the system clock once")
  Clock clock() {
    return Clock.systemUTC();
  }

  /** Does the command's work; returns the exit code. */
  protected abstract int run() throws Exception;

  @Override
  public final Integer call() {
    try {
      return run();
    } catch (ValidationException e) {
      return fail(EXIT_BAD_INPUT, e.getMessage());
    } catch (EngramException e) {
      return fail(EXIT_FAILURE, e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      return fail(EXIT_FAILURE, "I/O error: " + e.getMessage());
    } catch (Exception e) {
      return fail(EXIT_FAILURE, e.getClass().getSimpleName() + ": " + e.getMessage());
    } finally {
      out().flush();
      err().flush();
    }
  }

  private int fail(int code, String message) {
    err().println("engram " + spec.name() + ": " + message);
    return code;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  boolean json() {
    return common.json();
  }

  /** Prints a JSON value (indented) on stdout. */
  void printJson(JsonNode node) {
    out().println(MemoryJson.writePretty(node));
  }

  /**
   * Opens the memory in the configured data directory.
   *
   * @param create true to create the directory if it is missing; false to reject a missing
   *     directory, so that a mistyped {@code --data-dir} is reported instead of silently creating
   *     an empty store
   */
  Memory openMemory(boolean create) {
    return openMemory(dataDir(), create);
  }

  /**
   * The data directory: {@code --data-dir}, else the settings' (environment, engram.yaml,
   * ./engram-data).
   */
  Path dataDir() {
    return common.explicitDataDir().orElseGet(() -> settings().dataDir());
  }

  /**
   * The settings: {@code engram.yaml} (or the file named by {@code ENGRAM_CONFIG}) and the
   * environment, with {@code --embedder} applied.
   */
  EngramSettings settings() {
    EngramSettings s = SettingsLoader.loadDefault(System.getenv(), Path.of("").toAbsolutePath());
    if (common.embedder().isPresent()) {
      OnnxEmbedders.byName(common.embedder().get());
      s =
          s.withEmbedder(
              EngramSettings.Embedder.builder(EngramSettings.EmbedderProvider.ONNX)
                  .model(common.embedder().get())
                  .build());
    }
    return s;
  }

  /**
   * Opens the memory in {@code dir}; see {@link #openMemory(boolean)}. With {@code
   * graph_store.provider: neo4j} the memories stay in {@code dir} and the graph memory goes to
   * Neo4j (and is on).
   */
  Memory openMemory(Path dir, boolean create) {
    EngramSettings settings = settings();
    boolean embedded = settings.store().provider() == EngramSettings.StoreProvider.EMBEDDED;
    if (embedded && !create && !Files.isDirectory(dir)) {
      throw new ValidationException(
          "data_dir",
          "no data directory at '"
              + dir.toAbsolutePath()
              + "' (add memories first, or pass --data-dir or set "
              + CommonOptions.DATA_DIR_ENV
              + ")");
    }
    Embedder embedder = PipelineAssembly.embedder(settings, System.getenv());
    return PipelineAssembly.configure(
            Engram.builder()
                .clock(clock())
                .embedder(embedder)
                .storage(
                    StorageOpener.at(
                        dir, settings.store(), settings.graphStore(), System.getenv())),
            settings,
            System.getenv())
        .build();
  }
}
