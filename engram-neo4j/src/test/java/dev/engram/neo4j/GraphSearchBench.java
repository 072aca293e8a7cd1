package dev.engram.neo4j;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.TimeView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.neo4j.driver.Driver;

/**
 * Graph search latency on Neo4j (in-process harness over Bolt on loopback), for docs/BENCHMARKS.md.
 * Not a test: surefire does not run it. One "graph search" is what the read path does: the 5
 * entities most similar to the query, the currently valid relations incident to them, and the 10
 * relations whose fact is most similar.
 *
 * <p>Arguments (all optional): entities in the measured scope (3000), relations in it (6000), other
 * scopes (200), entities per other scope (50, with twice as many relations), dimensions (384),
 * measured queries (300). The server gets a 512 MB page cache, enough to hold the data. Run from
 * the repository root:
 *
 * <pre>
 * mvn -B -o -q -pl engram-neo4j test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
 * java -Xmx1g -cp "engram-neo4j/target/test-classes:engram-neo4j/target/classes:$(cat engram-neo4j/target/test-classpath.txt)" \
 *     dev.engram.neo4j.GraphSearchBench
 * </pre>
 */
public final class GraphSearchBench {
  private static final String TENANT = "bench";
  private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");

  private GraphSearchBench() {}

  public static void main(String[] args) {
    int entities = arg(args, 0, 3000);
    int relations = arg(args, 1, 6000);
    int otherScopes = arg(args, 2, 200);
    int perOther = arg(args, 3, 50);
    int dim = arg(args, 4, 384);
    int queries = arg(args, 5, 300);
    Random random = new Random(42);
    long t0 = System.nanoTime();
    TestNeo4j neo4j =
        TestNeo4j.start(512L << 20); // the data set is ~100 MB: keep it in the page cache
    try (Driver driver = neo4j.newDriver()) {
      System.out.printf("harness start %.1f s%n", (System.nanoTime() - t0) / 1e9);
      Neo4jGraphStore store = Neo4jGraphStore.open(driver, "neo4j");
      Scope target = Scope.user("target");
      long load = System.nanoTime();
      populate(store, target, entities, relations, dim, random);
      for (int s = 0; s < otherScopes; s++) {
        populate(store, Scope.user("other-" + s), perOther, 2 * perOther, dim, random);
      }
      System.out.printf(
          "loaded %d + %d x %d entities, %d + %d x %d relations, %d dims in %.1f s%n",
          entities,
          otherScopes,
          perOther,
          relations,
          otherScopes,
          2 * perOther,
          dim,
          (System.nanoTime() - load) / 1e9);

      TimeView now = TimeView.CURRENT.at(Instant.parse("2025-01-01T00:00:00Z"));
      long[] ent = new long[queries];
      long[] inc = new long[queries];
      long[] rel = new long[queries];
      long[] all = new long[queries];
      for (int q = -50; q < queries; q++) { // 50 warm-up queries
        float[] v = vector(random, dim);
        long a = System.nanoTime();
        List<ScoredEntity> hits = store.similarEntities(TENANT, target, v, 5);
        long b = System.nanoTime();
        store.relationsOf(TENANT, target, hits.stream().map(h -> h.entity().id()).toList(), now);
        long c = System.nanoTime();
        store.similarRelations(TENANT, target, v, 10, now);
        long d = System.nanoTime();
        if (q >= 0) {
          ent[q] = b - a;
          inc[q] = c - b;
          rel[q] = d - c;
          all[q] = d - a;
        }
      }
      report("similar entities (k=5)", ent);
      report("incident relations", inc);
      report("similar relations (k=10)", rel);
      report("graph search (all three)", all);
    } finally {
      long stop = System.nanoTime();
      neo4j.close();
      System.out.printf("harness stop %.1f s%n", (System.nanoTime() - stop) / 1e9);
    }
  }

  private static void populate(
      Neo4jGraphStore store, Scope scope, int n, int m, int dim, Random random) {
    String prefix = scope.userId().orElseThrow() + "-";
    List<Entity> batch = new ArrayList<>();
    List<Entity> all = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = "Entity " + i;
      Entity e =
          new Entity(
              prefix + "e" + i,
              name,
              name.toLowerCase(),
              "concept",
              vector(random, dim),
              1,
              T0,
              T0,
              scope);
      all.add(e);
      batch.add(e);
      if (batch.size() == 500) {
        store.apply(TENANT, GraphChanges.upserts(batch, List.of()));
        batch.clear();
      }
    }
    store.apply(TENANT, GraphChanges.upserts(batch, List.of()));
    List<Relation> rels = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      Entity s = all.get(random.nextInt(n));
      Entity t = all.get(random.nextInt(n));
      // A quarter of the relations ended in 2024: the current view skips them.
      Instant invalid = i % 4 == 0 ? Instant.parse("2024-06-01T00:00:00Z") : null;
      rels.add(
          new Relation(
              prefix + "r" + i,
              s.id(),
              "related_to",
              t.id(),
              s.name() + " relates to " + t.name(),
              vector(random, dim),
              T0,
              invalid,
              T0,
              invalid,
              List.of("m" + i),
              List.of(),
              scope));
      if (rels.size() == 1000) {
        store.apply(TENANT, GraphChanges.upserts(List.of(), rels));
        rels.clear();
      }
    }
    store.apply(TENANT, GraphChanges.upserts(List.of(), rels));
  }

  private static float[] vector(Random random, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < dim; i++) {
      v[i] = (float) (v[i] / Math.sqrt(n));
    }
    return v;
  }

  private static void report(String what, long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    System.out.printf(
        "%-26s p50 %7.2f ms  p95 %7.2f ms  max %7.2f ms%n",
        what,
        s[s.length / 2] / 1e6,
        s[(int) Math.ceil(s.length * 0.95) - 1] / 1e6,
        s[s.length - 1] / 1e6);
  }

  private static int arg(String[] args, int i, int def) {
    return args.length > i ? Integer.parseInt(args[i]) : def;
  }
}
