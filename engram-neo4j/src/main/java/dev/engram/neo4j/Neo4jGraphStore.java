package dev.engram.neo4j;

import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.Tenants;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.QueryConfig;
import org.neo4j.driver.Record;
import org.neo4j.driver.RoutingControl;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.exceptions.Neo4jException;

/**
 * The {@link GraphStore} on Neo4j 5 over Bolt.
 *
 * <p><b>Model.</b> An entity is a node {@code (:Entity {tenant, id, name, normalized_name,
 * aliases?, type, embedding, mentions, created_at, updated_at, user_id?, agent_id?, run_id?})}
 * ({@code aliases}: a list of normalised names, absent when empty; an upsert replaces it with the
 * node's other properties); a relation is a relationship {@code -[:RELATES {tenant, id, relation,
 * fact, fact_embedding, valid_at?, invalid_at?, created_at, expired_at?, source_message_ids,
 * memory_ids, user_id?, agent_id?, run_id?}]->}. The relation name is the {@code relation} property
 * of one relationship type, not a relationship type of its own as in mem0: a type cannot be a
 * parameter, so a type per name would put extracted text into Cypher. Ids are unique per tenant (a
 * uniqueness constraint on {@code (tenant, id)}); see {@link Schema} for the indexes.
 *
 * <p><b>Queries.</b> Every query is parameterised and filtered by tenant and scope. Similarity is
 * computed exactly with {@code vector.similarity.cosine} over the scope's nodes or relationships,
 * never through a vector index (which in Neo4j 5 filters after the approximate search). Neo4j's
 * function returns {@code (1 + cos) / 2}; scores are mapped back to the cosine. A stored or query
 * vector that is empty, all zeros or of another dimension count scores 0 instead of failing the
 * query (the function would throw). {@link #apply} runs in one write transaction; {@link
 * #deleteScope} and {@link #reset} delete in batches of {@value #DELETE_BATCH} rows, each batch its
 * own transaction.
 *
 * <p><b>Threading.</b> Thread-safe (the driver is). Failures of the server or of a query surface as
 * {@link StorageException}.
 */
public final class Neo4jGraphStore implements GraphStore, AutoCloseable {
  /** Rows per transaction when deleting a scope or a tenant. */
  static final int DELETE_BATCH = 10_000;

  private final Driver driver;
  private final String database;
  private final boolean ownsDriver;
  private final QueryConfig read;

  private Neo4jGraphStore(Driver driver, String database, boolean ownsDriver) {
    this.driver = driver;
    this.database = database;
    this.ownsDriver = ownsDriver;
    this.read =
        QueryConfig.builder().withDatabase(database).withRouting(RoutingControl.READ).build();
  }

  /**
   * A store on a driver the caller owns and closes ({@link #close()} leaves it open). Creates the
   * constraint and indexes if missing and waits until they are online.
   *
   * @throws StorageException if the server cannot be reached or refuses the schema
   */
  public static Neo4jGraphStore open(Driver driver, String database) {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(database, "database");
    return init(new Neo4jGraphStore(driver, database, false));
  }

  /**
   * A store with its own driver, built from the settings and closed by {@link #close()}.
   *
   * @throws StorageException if the server cannot be reached or refuses the credentials or the
   *     schema
   */
  public static Neo4jGraphStore connect(Neo4jSettings settings) {
    Objects.requireNonNull(settings, "settings");
    Driver driver =
        GraphDatabase.driver(
            settings.uri(),
            settings.user().isEmpty()
                ? AuthTokens.none()
                : AuthTokens.basic(settings.user(), settings.password()));
    try {
      driver.verifyConnectivity();
      return init(new Neo4jGraphStore(driver, settings.database(), true));
    } catch (RuntimeException e) {
      driver.close();
      throw e instanceof Neo4jException n ? failure("connect to " + settings.uri(), n) : e;
    }
  }

  private static Neo4jGraphStore init(Neo4jGraphStore store) {
    store.call(
        "create the schema",
        () -> {
          Schema.create(store.driver, store.database);
          return null;
        });
    return store;
  }

  /** The database this store reads and writes. */
  public String database() {
    return database;
  }

  @Override
  public void apply(String tenant, GraphChanges changes) {
    String t = Tenants.check(tenant);
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return;
    }
    call(
        "apply graph changes",
        () -> {
          try (var session = driver.session(sessionConfig())) {
            session.executeWrite(
                tx -> {
                  Writes.apply(tx, t, changes);
                  return null;
                });
          }
          return null;
        });
  }

  @Override
  public List<Entity> entities(String tenant, Collection<String> ids) {
    String t = Tenants.check(tenant);
    if (ids.isEmpty()) {
      return List.of();
    }
    return entityQuery(
        "MATCH (e:Entity) WHERE e.tenant = $tenant AND e.id IN $ids RETURN e",
        Map.of("tenant", t, "ids", List.copyOf(new LinkedHashSet<>(ids))));
  }

  /**
   * Matches the normalised name or list membership in {@code aliases}. List elements have no index
   * in Neo4j 5, so the lookup reads the scope's entities through the {@code (tenant, <scope id>)}
   * indexes: bounded by the scope, like {@link #similarEntities}, which entity resolution runs over
   * the same nodes. Alias nodes would make the lookup a seek at the price of a second kind of node
   * to keep in step with every upsert and delete.
   */
  @Override
  public List<Entity> entitiesByName(
      String tenant, Scope scope, Collection<String> normalizedNames) {
    String t = Tenants.check(tenant);
    if (normalizedNames.isEmpty()) {
      return List.of();
    }
    Map<String, Object> p = new HashMap<>();
    p.put("names", List.copyOf(new LinkedHashSet<>(normalizedNames)));
    return entityQuery(
        "MATCH (e:Entity) WHERE "
            + Cypher.scope("e", t, scope, p)
            + " AND "
            + Cypher.knownAs("e")
            + " RETURN e",
        p);
  }

  @Override
  public List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k) {
    String t = Tenants.check(tenant);
    if (k < 1) {
      return List.of();
    }
    Map<String, Object> p = new HashMap<>();
    p.put("k", k);
    String q =
        "MATCH (e:Entity) WHERE "
            + Cypher.scope("e", t, scope, p)
            + " WITH e, "
            + Cypher.similarity("e.embedding", vector, p)
            + " AS sim"
            + " RETURN e, sim ORDER BY sim DESC, e.id ASC LIMIT $k";
    return query(
        "find similar entities", q, p, r -> new ScoredEntity(Rows.entity(r.get("e")), cosine(r)));
  }

  @Override
  public List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    String t = Tenants.check(tenant);
    Objects.requireNonNull(view, "view");
    if (entityIds.isEmpty()) {
      return List.of();
    }
    Map<String, Object> p = new HashMap<>();
    p.put("ids", List.copyOf(new LinkedHashSet<>(entityIds)));
    String q =
        "MATCH (e:Entity) WHERE e.tenant = $tenant AND e.id IN $ids"
            + " MATCH (e)-[r:RELATES]-() WHERE "
            + Cypher.scope("r", t, scope, p)
            + " AND "
            + Cypher.admits("r", view, p)
            + " WITH DISTINCT r MATCH (s:Entity)-[r]->(d:Entity)"
            + " RETURN r, s.id AS source, d.id AS target ORDER BY r.id";
    return query("read relations", q, p, Neo4jGraphStore::relation);
  }

  /**
   * List membership on the {@code memory_ids} property. No index covers list elements, so this
   * reads the tenant's relationships (through the {@code (tenant, id)} index); it runs on deletes
   * and text updates, not on searches.
   */
  @Override
  public List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds) {
    String t = Tenants.check(tenant);
    Objects.requireNonNull(memoryIds, "memoryIds");
    if (memoryIds.isEmpty()) {
      return List.of();
    }
    Map<String, Object> p = new HashMap<>();
    p.put("tenant", t);
    p.put("ids", List.copyOf(new LinkedHashSet<>(memoryIds)));
    String q =
        "MATCH (s:Entity)-[r:RELATES]->(d:Entity) WHERE r.tenant = $tenant AND r.id IS NOT NULL"
            + " AND any(m IN r.memory_ids WHERE m IN $ids)"
            + " RETURN r, s.id AS source, d.id AS target ORDER BY r.id";
    return query("read the relations of memories", q, p, Neo4jGraphStore::relation);
  }

  @Override
  public List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view) {
    String t = Tenants.check(tenant);
    Objects.requireNonNull(view, "view");
    if (k < 1) {
      return List.of();
    }
    Map<String, Object> p = new HashMap<>();
    p.put("k", k);
    // The endpoints are looked up for the k best only.
    String q =
        "MATCH ()-[r:RELATES]->() WHERE "
            + Cypher.scope("r", t, scope, p)
            + " AND "
            + Cypher.admits("r", view, p)
            + " WITH r, "
            + Cypher.similarity("r.fact_embedding", vector, p)
            + " AS sim"
            + " ORDER BY sim DESC, r.id ASC LIMIT $k"
            + " RETURN r, startNode(r).id AS source, endNode(r).id AS target, sim";
    return query("find similar relations", q, p, r -> new ScoredRelation(relation(r), cosine(r)));
  }

  @Override
  public int deleteScope(String tenant, Scope scope) {
    String t = Tenants.check(tenant);
    Map<String, Object> p = new HashMap<>();
    String relations = Cypher.scope("r", t, scope, p);
    String entities = Cypher.scope("e", t, scope, p);
    return call(
        "delete a scope's graph",
        () -> {
          try (var session = driver.session(sessionConfig())) {
            // Relations first: those of the scope whose endpoints lie outside it, should any exist,
            // go too.
            session
                .run(
                    "MATCH ()-[r:RELATES]->() WHERE "
                        + relations
                        + " CALL { WITH r DELETE r } IN TRANSACTIONS OF "
                        + DELETE_BATCH
                        + " ROWS",
                    p)
                .consume();
            return session
                .run(
                    "MATCH (e:Entity) WHERE "
                        + entities
                        + " CALL { WITH e DETACH DELETE e } IN TRANSACTIONS OF "
                        + DELETE_BATCH
                        + " ROWS"
                        + " RETURN count(*) AS deleted",
                    p)
                .single()
                .get("deleted")
                .asInt();
          }
        });
  }

  @Override
  public void reset(String tenant) {
    String t = Tenants.check(tenant);
    call(
        "reset the tenant's graph",
        () -> {
          try (var session = driver.session(sessionConfig())) {
            session
                .run(
                    "MATCH (e:Entity) WHERE e.tenant = $tenant"
                        + " CALL { WITH e DETACH DELETE e } IN TRANSACTIONS OF "
                        + DELETE_BATCH
                        + " ROWS",
                    Map.of("tenant", t))
                .consume();
          }
          return null;
        });
  }

  /**
   * Closes the driver if {@link #connect} opened it; a driver passed to {@link #open} stays open.
   */
  @Override
  public void close() {
    if (ownsDriver) {
      driver.close();
    }
  }

  private SessionConfig sessionConfig() {
    // The bookmark manager of executableQuery: reads through it see this session's writes, also in
    // a cluster.
    return SessionConfig.builder()
        .withDatabase(database)
        .withBookmarkManager(driver.executableQueryBookmarkManager())
        .build();
  }

  private List<Entity> entityQuery(String q, Map<String, Object> p) {
    return query("read entities", q, p, r -> Rows.entity(r.get("e")));
  }

  private <T> List<T> query(
      String what, String q, Map<String, Object> p, java.util.function.Function<Record, T> map) {
    return call(
        what,
        () -> {
          List<Record> records =
              driver.executableQuery(q).withParameters(p).withConfig(read).execute().records();
          List<T> out = new ArrayList<>(records.size());
          for (Record r : records) {
            out.add(map.apply(r));
          }
          return out;
        });
  }

  private <T> T call(String what, Supplier<T> work) {
    try {
      return work.get();
    } catch (Neo4jException e) {
      throw failure(what + " in database '" + database + "'", e);
    }
  }

  private static StorageException failure(String what, Neo4jException e) {
    return new StorageException(
        "neo4j: could not " + what + ": " + e.code() + ": " + e.getMessage(), e);
  }

  private static Relation relation(Record r) {
    return Rows.relation(r.get("r"), r.get("source").asString(), r.get("target").asString());
  }

  /**
   * Neo4j's cosine similarity is {@code (1 + cos) / 2} in [0, 1]; this is the cosine again, in [-1,
   * 1].
   */
  private static double cosine(Record r) {
    return 2 * r.get("sim").asDouble() - 1;
  }
}
