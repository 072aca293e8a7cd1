package dev.engram.neo4j;

import java.util.List;
import org.neo4j.driver.Driver;
import org.neo4j.driver.QueryConfig;

/**
 * The constraint and indexes the store needs, created idempotently ({@code IF NOT EXISTS}) when a
 * store opens. All are available in Neo4j Community Edition.
 *
 * <ul>
 *   <li>a uniqueness constraint on {@code (tenant, id)} of {@code :Entity}, which also backs
 *       lookups by id and the {@code MERGE} of an upsert;
 *   <li>range indexes on {@code (tenant, normalized_name)} and on {@code (tenant, user_id)}, {@code
 *       (tenant, agent_id)}, {@code (tenant, run_id)} of {@code :Entity}, so a read touches only
 *       its scope's nodes;
 *   <li>relationship range indexes on {@code (tenant, id)} and the three {@code (tenant, <scope
 *       id>)} pairs of {@code :RELATES}.
 * </ul>
 *
 * <p>No vector index: Neo4j 5's vector indexes filter after the approximate search, so a top-k over
 * a small scope among many comes back short. Similarity is computed exactly over the scope's rows
 * instead.
 */
final class Schema {
  private static final List<String> STATEMENTS =
      List.of(
          "CREATE CONSTRAINT engram_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE (e.tenant, e.id) IS UNIQUE",
          "CREATE INDEX engram_entity_name IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.normalized_name)",
          "CREATE INDEX engram_entity_user IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.user_id)",
          "CREATE INDEX engram_entity_agent IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.agent_id)",
          "CREATE INDEX engram_entity_run IF NOT EXISTS FOR (e:Entity) ON (e.tenant, e.run_id)",
          "CREATE INDEX engram_relates_id IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.tenant, r.id)",
          "CREATE INDEX engram_relates_user IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.tenant, r.user_id)",
          "CREATE INDEX engram_relates_agent IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.tenant, r.agent_id)",
          "CREATE INDEX engram_relates_run IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.tenant, r.run_id)");

  /** How long {@link #create} waits for new indexes to come online. */
  private static final int AWAIT_SECONDS = 120;

  private Schema() {}

  /**
   * Creates what is missing (each schema statement in its own transaction) and waits until it is
   * online.
   */
  static void create(Driver driver, String database) {
    QueryConfig config = QueryConfig.builder().withDatabase(database).build();
    for (String statement : STATEMENTS) {
      driver.executableQuery(statement).withConfig(config).execute();
    }
    driver
        .executableQuery("CALL db.awaitIndexes($seconds)")
        .withParameters(java.util.Map.of("seconds", AWAIT_SECONDS))
        .withConfig(config)
        .execute();
  }
}
