package dev.engram.embedded;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A measurement program, not a test: graph search latency in-process on the embedded store (SQLite
 * scan of the scope's vectors). Run: {@code java -cp <test classpath>
 * dev.engram.embedded.GraphSearchLatency [entities] [relations] [other-scope rows] [queries]}.
 * Prints p50/p95 of a whole search (memories + graph) with the graph on, the same with the graph
 * off, and of the graph part alone.
 */
public final class GraphSearchLatency {
  private static dev.engram.spi.GraphStore STORE;

  private GraphSearchLatency() {}

  public static void main(String[] args) throws Exception {
    int entities = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int relations = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int others = args.length > 2 ? Integer.parseInt(args[2]) : 20000;
    int queries = args.length > 3 ? Integer.parseInt(args[3]) : 500;
    int dim = 384;
    HashEmbedder embedder = new HashEmbedder(dim, "hash-384");
    Path dir = Files.createTempDirectory("graph-latency");
    Scope scope = Scope.user("alice");
    Random rnd = new Random(42);
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    try (EmbeddedStorage storage = EmbeddedStorage.open(dir, dim)) {
      var graph = storage.graph().orElseThrow();
      write(graph, scope, "P", entities, relations, embedder, rnd, t);
      write(graph, Scope.user("others"), "Q", others / 2, others / 2, embedder, rnd, t);
    }
    for (boolean on : new boolean[] {true, false}) {
      EmbeddedStorage opened = EmbeddedStorage.open(dir, dim);
      STORE = opened.graph().orElseThrow();
      var b = Engram.builder().storage(opened).embedder(embedder);
      if (on) {
        b.graph(OfflineGraphExtractor.create());
      }
      try (Memory memory = b.build()) {
        long[] ns = new long[queries];
        for (int i = 0; i < queries + 50; i++) {
          String q = "who does Person" + rnd.nextInt(entities) + " know?";
          long start = System.nanoTime();
          memory.search(SearchRequest.builder(scope, q).build());
          if (i >= 50) {
            ns[i - 50] = System.nanoTime() - start;
          }
        }
        report("search, graph " + (on ? "on " : "off"), ns);
        if (on) {
          long[] rel = new long[queries];
          for (int i = 0; i < queries; i++) {
            long start = System.nanoTime();
            memory.entityRelations(scope, "Person" + rnd.nextInt(entities), TimeView.CURRENT);
            rel[i] = System.nanoTime() - start;
          }
          report("entity relations", rel);
          long[] se = new long[queries];
          long[] sr = new long[queries];
          for (int i = 0; i < queries; i++) {
            float[] q = embedder.embedQuery("who does Person" + rnd.nextInt(entities) + " know?");
            long start = System.nanoTime();
            STORE.similarEntities("default", scope, q, 3);
            se[i] = System.nanoTime() - start;
            start = System.nanoTime();
            STORE.similarRelations("default", scope, q, 20, TimeView.CURRENT.at(Instant.now()));
            sr[i] = System.nanoTime() - start;
          }
          report("similar entities", se);
          report("similar relations", sr);
        }
      }
    }
    System.out.printf(
        "scope: %d entities, %d relations; other scope: %d rows; dimension %d%n",
        entities, relations, others, dim);
  }

  private static void write(
      dev.engram.spi.GraphStore graph,
      Scope scope,
      String prefix,
      int n,
      int m,
      HashEmbedder embedder,
      Random rnd,
      Instant t) {
    List<Entity> es = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = (prefix.equals("P") ? "Person" : "Other") + i;
      es.add(
          new Entity(
              prefix + "e" + i,
              name,
              Names.normalize(name),
              "person",
              embedder.embedQuery(name),
              1,
              t,
              t,
              scope));
    }
    List<Relation> rs = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      Entity a = es.get(rnd.nextInt(n));
      Entity b = es.get(rnd.nextInt(n));
      String fact = a.name() + " knows " + b.name();
      rs.add(
          new Relation(
              prefix + "r" + i,
              a.id(),
              "knows",
              b.id(),
              fact,
              embedder.embedQuery(fact),
              t,
              null,
              t,
              null,
              List.of(),
              List.of(),
              scope));
    }
    graph.apply("default", GraphChanges.upserts(es, rs));
  }

  private static void report(String what, long[] ns) {
    long[] s = ns.clone();
    Arrays.sort(s);
    System.out.printf(
        "%-22s p50 %.2f ms  p95 %.2f ms  (n=%d)%n",
        what, s[s.length / 2] / 1e6, s[(int) (s.length * 0.95)] / 1e6, s.length);
  }
}
