package dev.engram.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.bench.scale.BenchStore;
import dev.engram.bench.scale.EmbeddedBenchStore;
import dev.engram.bench.scale.PostgresBenchStore;
import dev.engram.bench.scale.ScaleBench;
import dev.engram.bench.scale.ScaleReport;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.VectorMode;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram bench scale}: the scale benchmark ({@link ScaleBench}) on synthetic memories.
 * Prints a summary (or, with {@code --json}, the JSON report) on stdout; the progress bar and logs
 * go to stderr. Exit codes as for every command: 0 success, 2 bad options, 1 any other failure.
 */
@Command(
    name = "scale",
    description = {
      "Measure ingest rate, search and list latency, heap, disk size and reopen time on synthetic "
          + "memories spread over users.",
      "Runs in an empty data directory (a temporary one, deleted afterwards, unless --data-dir is given)."
    })
final class ScaleBenchCommand extends ReportingBenchCommand {
  /** The stores this command measures: the embedded one alone, or PostgreSQL beside it. */
  enum StoreChoice {
    EMBEDDED,
    POSTGRES
  }

  @Option(
      names = "--memories",
      paramLabel = "N",
      required = true,
      description = "Memories to ingest.")
  long memories;

  @Option(
      names = "--users",
      paramLabel = "U",
      required = true,
      description = "Users to spread them over (N/U memories each).")
  int users;

  @Option(
      names = "--embedder",
      paramLabel = "hash|onnx",
      defaultValue = "hash",
      converter = BenchEmbedder.Converter.class,
      description =
          "hash: the cheap benchmark embedder (feature hashing, no model; default); onnx: the default "
              + "in-process model ("
              + OnnxEmbedders.DEFAULT
              + "; a few hundred texts per second, for small runs).")
  BenchEmbedder embedder;

  @Option(
      names = "--batch",
      paramLabel = "B",
      defaultValue = "1000",
      description = "Requests per addBatch transaction (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--queries",
      paramLabel = "Q",
      defaultValue = "1000",
      description = "Searches and lists to time, after a warm-up (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(
      names = "--top-k",
      paramLabel = "K",
      defaultValue = "10",
      description = "Results per search (default: ${DEFAULT-VALUE}).")
  int topK;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "42",
      description = "Seed of the text generator (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--store",
      paramLabel = "embedded|postgres",
      defaultValue = "embedded",
      converter = StoreConverter.class,
      description =
          "embedded (default), or postgres: the same run on PostgreSQL (--pg-url) after the embedded store,"
              + " both reported.")
  StoreChoice store;

  @Option(
      names = "--pg-url",
      paramLabel = "JDBC_URL",
      description =
          "The PostgreSQL database for --store postgres (password in ENGRAM_POSTGRES_PASSWORD).")
  String pgUrl;

  @Option(
      names = "--pg-user",
      paramLabel = "USER",
      defaultValue = "postgres",
      description = "The PostgreSQL user (default: ${DEFAULT-VALUE}).")
  String pgUser;

  @Option(
      names = "--pg-schema",
      paramLabel = "SCHEMA",
      defaultValue = "engram_scale",
      description =
          "An absent or empty schema to fill (default: ${DEFAULT-VALUE}); dropped afterwards unless "
              + "--data-dir is given.")
  String pgSchema;

  @Option(
      names = "--pg-vectors",
      paramLabel = "auto|pgvector|array",
      defaultValue = "auto",
      description = "The vector path (store.vectors; default: ${DEFAULT-VALUE}).")
  String pgVectors;

  @Option(
      names = "--pg-pool-size",
      paramLabel = "N",
      defaultValue = "10",
      description = "Connections (store.pool_size; 1 for PGlite; default: ${DEFAULT-VALUE}).")
  int pgPoolSize;

  @Option(
      names = "--pg-vector-cache-mb",
      paramLabel = "MIB",
      defaultValue = "256",
      description =
          "Embedding cache of the plain-array path (store.vector_cache_mb; 0 scores in SQL;"
              + " default: ${DEFAULT-VALUE}).")
  int pgVectorCacheMb;

  @Option(
      names = "--filled",
      description =
          "Search the stores that an earlier run with the same --memories,"
              + " --users and --seed filled and kept (--data-dir, and --pg-schema with --store postgres) without ingesting"
              + " again: the figures after reopening, for a new search path on data too large to load twice.")
  boolean filled;

  @Override
  protected String temporaryPrefix() {
    return "engram-scale-";
  }

  @Override
  protected int run(Path dir, PrintWriter stdout, PrintWriter err) throws IOException {
    boolean kept = report.keptDataDir().isPresent();
    if (filled && !kept) {
      // checked first: without --data-dir the stores are temporary, and the PostgreSQL schema would
      // be dropped
      throw new IllegalArgumentException(
          "--filled needs the --data-dir (and --pg-schema) an earlier run filled and" + " kept");
    }
    Optional<PostgresBenchStore> postgres = Optional.empty();
    try {
      if (store == StoreChoice.POSTGRES) {
        postgres = Optional.of(postgres());
      }
      ScaleBench.Options options =
          new ScaleBench.Options(memories, users, dir, batch, queries, topK, seed);
      Embedder e = embedder.create();
      if (filled) {
        return searchFilled(options, e, dir, postgres, stdout);
      }
      ScaleReport embedded = run(options, e, new EmbeddedBenchStore(dir), err);
      if (postgres.isEmpty()) {
        report.out().ifPresent(embedded::writeJson);
        stdout.println(report.json() ? embedded.toJson() : embedded.summary());
        return BaseCommand.EXIT_OK;
      }
      ScaleReport pg = run(options, e, postgres.get(), err);
      String both = "[" + embedded.toJson() + ",\n" + pg.toJson() + "]";
      if (report.out().isPresent()) {
        Files.writeString(report.out().get(), both);
      }
      stdout.println(
          report.json()
              ? both
              : embedded.summary()
                  + String.format("%n%n")
                  + pg.summary()
                  + String.format(
                      Locale.ROOT,
                      "%n%nsearch p95 %s / embedded: %.2fx (after reopen %.2fx)",
                      pg.store(),
                      pg.search().p95() / embedded.search().p95(),
                      pg.reopen().search().p95() / embedded.reopen().search().p95()));
      return BaseCommand.EXIT_OK;
    } finally {
      if (!kept) {
        postgres.ifPresent(PostgresBenchStore::drop);
      }
    }
  }

  /**
   * The PostgreSQL store of {@code --store postgres}, empty unless {@code --filled} reads a kept
   * one.
   */
  private PostgresBenchStore postgres() {
    if (pgUrl == null) {
      throw new IllegalArgumentException("--pg-url is required with --store postgres");
    }
    PostgresSettings.Builder settings =
        PostgresSettings.builder(pgUrl)
            .user(pgUser)
            .schema(pgSchema)
            .poolSize(pgPoolSize)
            .vectors(VectorMode.parse(pgVectors))
            .vectorCacheMb(pgVectorCacheMb);
    Optional.ofNullable(System.getenv("ENGRAM_POSTGRES_PASSWORD")).ifPresent(settings::password);
    PostgresBenchStore postgres = new PostgresBenchStore(settings.build());
    if (!filled) {
      postgres.requireEmpty();
    }
    return postgres;
  }

  /**
   * {@code --filled}: the after-reopen searches of the kept embedded store and, if given, the
   * PostgreSQL one.
   */
  private int searchFilled(
      ScaleBench.Options options,
      Embedder e,
      Path dir,
      Optional<PostgresBenchStore> postgres,
      PrintWriter stdout)
      throws IOException {
    ScaleReport.Reopen embedded = ScaleBench.searchFilled(options, e, new EmbeddedBenchStore(dir));
    Optional<ScaleReport.Reopen> pg = postgres.map(p -> ScaleBench.searchFilled(options, e, p));
    Map<String, ScaleReport.Reopen> byStore = new LinkedHashMap<>();
    byStore.put("embedded", embedded);
    pg.ifPresent(r -> byStore.put("postgres", r));
    String reopened =
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(byStore);
    if (report.out().isPresent()) {
      Files.writeString(report.out().get(), reopened);
    }
    if (report.json()) {
      stdout.println(reopened);
      return BaseCommand.EXIT_OK;
    }
    stdout.println(filledSummary("embedded", embedded));
    pg.ifPresent(
        r ->
            stdout.println(
                filledSummary("postgres", r)
                    + String.format(
                        Locale.ROOT,
                        "%nsearch p95 postgres / embedded: %.2fx",
                        r.search().p95() / embedded.search().p95())));
    return BaseCommand.EXIT_OK;
  }

  private String filledSummary(String store, ScaleReport.Reopen r) {
    return String.format(
        Locale.ROOT,
        "%s store, filled: %d memories, opened in %.2f s, first search %.1f ms;"
            + " search (top %d, %d queries): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms",
        store,
        r.memories(),
        r.ms() / 1000,
        r.firstSearchMs(),
        topK,
        r.search().count(),
        r.search().p50(),
        r.search().p95(),
        r.search().p99());
  }

  private ScaleReport run(
      ScaleBench.Options options, Embedder e, BenchStore target, PrintWriter err) {
    try (Progress progress = Progress.start("ingest", memories, "memories", err)) {
      long[] reported = {0};
      return ScaleBench.run(
          options,
          e,
          target,
          done -> {
            progress.stepBy(done - reported[0]);
            reported[0] = done;
          });
    }
  }

  /** Accepts {@code embedded} or {@code postgres} in any case. */
  static final class StoreConverter implements picocli.CommandLine.ITypeConverter<StoreChoice> {
    @Override
    public StoreChoice convert(String value) {
      try {
        return StoreChoice.valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "expected embedded or postgres, got '" + value + "'");
      }
    }
  }
}
