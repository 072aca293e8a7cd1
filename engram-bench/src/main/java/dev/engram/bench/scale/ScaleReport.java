package dev.engram.bench.scale;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.engram.bench.Percentiles;
import dev.engram.bench.ReportJson;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The result of a {@link ScaleBench} run, written as JSON with snake_case keys. Latencies are in
 * milliseconds, sizes in bytes (heap in MiB).
 *
 * @param store where the memories were kept ({@link BenchStore#name()})
 * @param memories memories ingested
 * @param users users (scopes) they were spread over
 * @param memoriesPerUser memories per user, {@code memories / users} (rounded down)
 * @param batch requests per {@code addBatch}
 * @param topK results per search
 * @param embedder the embedder's model id
 * @param seed the generator's seed
 * @param machine processors, maximum heap and Java version of the run
 * @param ingest ingest rate and batch latencies
 * @param search search latencies over the measured queries (after a warm-up), right after ingesting
 * @param searchHitsMean mean number of hits per search
 * @param list latencies of listing a user's first page of memories
 * @param heapUsedMib heap in use after garbage collection, with the ingested memory open
 * @param closeMs time to close the memory after the run (final index commit)
 * @param disk size of the data directory after closing
 * @param reopen reopening the data directory: time and what it holds
 * @param perUser memories counted per user after reopening
 */
@JsonPropertyOrder({
  "store",
  "memories",
  "users",
  "memories_per_user",
  "batch",
  "top_k",
  "embedder",
  "seed",
  "machine",
  "ingest",
  "search_ms",
  "search_hits_mean",
  "list_ms",
  "heap_used_mib_after_gc",
  "close_ms",
  "disk",
  "reopen",
  "per_user"
})
public record ScaleReport(
    String store,
    long memories,
    int users,
    @JsonProperty("memories_per_user") long memoriesPerUser,
    int batch,
    @JsonProperty("top_k") int topK,
    String embedder,
    long seed,
    Machine machine,
    Ingest ingest,
    @JsonProperty("search_ms") Latency search,
    @JsonProperty("search_hits_mean") double searchHitsMean,
    @JsonProperty("list_ms") Latency list,
    @JsonProperty("heap_used_mib_after_gc") double heapUsedMib,
    @JsonProperty("close_ms") double closeMs,
    Disk disk,
    Reopen reopen,
    @JsonProperty("per_user") PerUser perUser) {

  /** Where the run took place. */
  @JsonPropertyOrder({"processors", "max_heap_mib", "java_version"})
  public record Machine(
      int processors,
      @JsonProperty("max_heap_mib") double maxHeapMib,
      @JsonProperty("java_version") String javaVersion) {}

  /** Ingest: wall time, rate, and the latency of each {@code addBatch}. */
  @JsonPropertyOrder({"seconds", "memories_per_second", "batch_ms"})
  public record Ingest(
      double seconds,
      @JsonProperty("memories_per_second") double memoriesPerSecond,
      @JsonProperty("batch_ms") Latency batchMs) {}

  /** Latency percentiles (nearest rank) over {@code count} calls. */
  @JsonPropertyOrder({"count", "p50", "p95", "p99", "mean", "max"})
  public record Latency(int count, double p50, double p95, double p99, double mean, double max) {
    /** The percentiles of a sample of latencies in milliseconds. */
    public static Latency of(double[] millis) {
      Percentiles p = new Percentiles(millis);
      return new Latency(
          p.size(),
          round(p.at(50)),
          round(p.at(95)),
          round(p.at(99)),
          round(p.mean()),
          round(p.at(100)));
    }
  }

  /**
   * Bytes on disk: the record (SQLite database and WAL files; PostgreSQL tables with TOAST), the
   * index (Lucene; PostgreSQL indexes), and their total.
   */
  @JsonPropertyOrder({"total_bytes", "database_bytes", "index_bytes", "bytes_per_memory"})
  public record Disk(
      @JsonProperty("total_bytes") long totalBytes,
      @JsonProperty("database_bytes") long databaseBytes,
      @JsonProperty("index_bytes") long indexBytes,
      @JsonProperty("bytes_per_memory") double bytesPerMemory) {}

  /**
   * Reopening: the time to open the storage and the memory (including the index check against the
   * record), what the record and the index hold afterwards, the first search's latency, and the
   * search latencies of the same queries as {@code search_ms} on the reopened, settled index (no
   * merges left running).
   */
  @JsonPropertyOrder({"ms", "memories", "index_documents", "first_search_ms", "search_ms"})
  public record Reopen(
      double ms,
      long memories,
      @JsonProperty("index_documents") long indexDocuments,
      @JsonProperty("first_search_ms") double firstSearchMs,
      @JsonProperty("search_ms") Latency search) {}

  /**
   * The fewest and most memories found per user, over {@code checkedUsers} users, and their sum.
   */
  @JsonPropertyOrder({"checked_users", "min", "max", "total"})
  public record PerUser(
      @JsonProperty("checked_users") int checkedUsers, long min, long max, long total) {}

  /** Writes the report as indented JSON. */
  public void writeJson(Path file) {
    ReportJson.write(this, file, "the scale report");
  }

  /** The report as indented JSON text. */
  public String toJson() {
    return ReportJson.text(this, "the scale report");
  }

  /** A short human-readable summary, one figure per line. */
  public String summary() {
    return String.format(
        Locale.ROOT,
        String.join(
            "%n",
            "%s store: memories %d over %d users (%d per user), embedder %s, batch %d",
            "ingest: %.1f s, %.0f memories/s (batch p50 %.1f ms, p95 %.1f ms)",
            "search (top %d, %d queries): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms",
            "list (first page): p50 %.2f ms, p95 %.2f ms",
            "heap used after GC: %.0f MiB; disk: %.1f MiB (record %.1f MiB, index %.1f MiB, %.0f B/memory)",
            "reopen: %.0f ms, %d memories, %d index documents; first search %.1f ms",
            "search after reopen: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms"),
        store,
        memories,
        users,
        memoriesPerUser,
        embedder,
        batch,
        ingest.seconds(),
        ingest.memoriesPerSecond(),
        ingest.batchMs().p50(),
        ingest.batchMs().p95(),
        topK,
        search.count(),
        search.p50(),
        search.p95(),
        search.p99(),
        list.p50(),
        list.p95(),
        heapUsedMib,
        disk.totalBytes() / MIB,
        disk.databaseBytes() / MIB,
        disk.indexBytes() / MIB,
        disk.bytesPerMemory(),
        reopen.ms(),
        reopen.memories(),
        reopen.indexDocuments(),
        reopen.firstSearchMs(),
        reopen.search().p50(),
        reopen.search().p95(),
        reopen.search().p99());
  }

  private static final double MIB = 1024.0 * 1024.0;

  static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }
}
