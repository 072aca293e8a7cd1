package dev.engram.sqlite;

import dev.engram.StorageException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The database schema and its {@code meta} table (schema version, embedding model, generation).
 *
 * <ul>
 *   <li>{@code memories}: one row per live memory, primary key (tenant, id); times as (epoch
 *       second, nano) pairs, expiration as an epoch day, metadata and source ids as JSON text, the
 *       embedding as little-endian float32, {@code seq} the sequence number of its latest change,
 *       {@code context} its source context ({@code ''} by default; added by {@code ALTER TABLE} to
 *       older files, without a version change).
 *   <li>{@code history}: the audit trail and change feed; {@code seq} (AUTOINCREMENT, never reused)
 *       is the feed's sequence number. Rows outlive the memory they describe. {@code pipeline}
 *       (which path through the engine made the change; {@code unknown} by default) was added
 *       without a version change ({@code ALTER TABLE} on open).
 *   <li>{@code messages}: each (tenant, scope key)'s recent conversation messages, in insertion
 *       ({@code id}) order.
 *   <li>{@code summaries}: each (tenant, scope key)'s rolling conversation summary.
 *   <li>{@code graph_entities}, {@code graph_relations}: the graph memory (see {@link
 *       SqliteGraphStore}); added without a version change ({@code CREATE TABLE IF NOT EXISTS} adds
 *       them to older files).
 *   <li>{@code graph_relation_memories}: (tenant, memory id, relation id) for every id in a
 *       relation's {@code memory_ids}, kept by triggers on {@code graph_relations} (filled from the
 *       JSON column when an older file is opened), so the relations of a memory are found through
 *       an index.
 *   <li>{@code graph_entities.aliases} (a JSON array of normalised names, {@code []} by default;
 *       added by {@code ALTER TABLE} to older files, again without a version change) and {@code
 *       graph_entity_aliases}: (tenant, entity id, alias, scope ids) for every alias, kept by
 *       triggers on {@code graph_entities} (filled from the JSON column when a file without it is
 *       opened) and indexed by (tenant, alias, scope ids), so entities are found by alias through
 *       an index.
 *   <li>{@code graph_outbox}: graph changes committed with their memory changes for a separate
 *       graph store (see {@link SqliteGraphOutbox}), {@code seq} an AUTOINCREMENT key, {@code
 *       changes} their JSON; created on open for older files, again without a version change.
 * </ul>
 */
final class Schema {
  /** The schema version this code writes and reads. */
  static final int VERSION = 1;

  static final String SCHEMA_VERSION = "schema_version";
  static final String GENERATION = "generation";
  static final String EMBEDDING_MODEL = "embedding_model";
  static final String EMBEDDING_DIMENSION = "embedding_dimension";

  /** The table that indexes {@code graph_relations.memory_ids} by memory id. */
  static final String RELATION_MEMORIES = "graph_relation_memories";

  /** The outbox of graph changes for a separate graph store. */
  static final String GRAPH_OUTBOX = "graph_outbox";

  /** The table that indexes {@code graph_entities.aliases} by alias. */
  static final String ENTITY_ALIASES = "graph_entity_aliases";

  /** Its lookup index, (tenant, alias, user_id, agent_id, run_id). */
  static final String ENTITY_ALIASES_INDEX = "graph_entity_aliases_name";

  /** The index of a memory's text hash, which {@code findByHash} names (see there). */
  static final String HASH_INDEX = "memories_hash";

  /**
   * The JSON array of an entity's aliases. With a constant default an older file gets it by {@code
   * ALTER TABLE}, and an older Engram that writes an entity without it leaves {@code []}, which its
   * triggers then index.
   */
  private static final String ENTITY_ALIASES_COLUMN = "aliases TEXT NOT NULL DEFAULT '[]'";

  /**
   * A memory's source context ({@link dev.engram.spi.StoredMemory#context}). With a constant
   * default an older file gets it by {@code ALTER TABLE}, its memories reading {@code ''} (no
   * context), and so does a memory that an older Engram writes without it.
   */
  private static final String MEMORY_CONTEXT_COLUMN = "context TEXT NOT NULL DEFAULT ''";

  /**
   * A memory's context embedding ({@link dev.engram.spi.StoredMemory#contextEmbedding},
   * little-endian floats). With a constant default (an empty blob: none) an older file gets it by
   * {@code ALTER TABLE}, and so does a memory that an older Engram writes without it.
   */
  private static final String MEMORY_CONTEXT_EMBEDDING_COLUMN =
      "context_embedding BLOB NOT NULL DEFAULT x''";

  /**
   * Which path through the engine made a history row's change ({@link dev.engram.ChangePipelines}).
   * With a constant default an older file gets it by {@code ALTER TABLE}, its rows reading {@code
   * unknown}, and so does a row that an older Engram writes without it.
   */
  private static final String HISTORY_PIPELINE_COLUMN =
      "pipeline TEXT NOT NULL DEFAULT '" + dev.engram.ChangePipelines.UNKNOWN + "'";

  private static final List<String> DDL =
      List.of(
          "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
          "CREATE TABLE IF NOT EXISTS memories ("
              + " tenant TEXT NOT NULL, id TEXT NOT NULL,"
              + " user_id TEXT, agent_id TEXT, run_id TEXT, actor_id TEXT, role TEXT,"
              + " text TEXT NOT NULL, hash TEXT NOT NULL, metadata TEXT NOT NULL,"
              + " created_s INTEGER NOT NULL, created_ns INTEGER NOT NULL,"
              + " updated_s INTEGER NOT NULL, updated_ns INTEGER NOT NULL,"
              + " event_s INTEGER, event_ns INTEGER,"
              + " source_ids TEXT NOT NULL, expiration_day INTEGER,"
              + " embedding BLOB NOT NULL, seq INTEGER NOT NULL, "
              + MEMORY_CONTEXT_COLUMN
              + ", "
              + MEMORY_CONTEXT_EMBEDDING_COLUMN
              + ","
              + " PRIMARY KEY (tenant, id))",
          "CREATE INDEX IF NOT EXISTS memories_scope"
              + " ON memories (tenant, user_id, agent_id, run_id, created_s, created_ns)",
          // Covers a user's listing: count, expiry check and newest-first page order come from the
          // index alone, so a
          // list reads only the rows of the page it returns (a user's rows are spread over the
          // whole table).
          "CREATE INDEX IF NOT EXISTS memories_listing"
              + " ON memories (tenant, user_id, created_s, created_ns, id, expiration_day, agent_id, run_id)",
          "CREATE INDEX IF NOT EXISTS " + HASH_INDEX + " ON memories (tenant, hash)",
          "CREATE INDEX IF NOT EXISTS memories_expiration ON memories (tenant, expiration_day)",
          "CREATE TABLE IF NOT EXISTS history ("
              + " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
              + " tenant TEXT NOT NULL, memory_id TEXT NOT NULL,"
              + " event TEXT NOT NULL CHECK (event IN ('ADD', 'UPDATE', 'DELETE')),"
              + " old_text TEXT, new_text TEXT, actor_id TEXT, role TEXT,"
              + " created_s INTEGER NOT NULL, created_ns INTEGER NOT NULL, "
              + HISTORY_PIPELINE_COLUMN
              + ")",
          "CREATE INDEX IF NOT EXISTS history_memory ON history (tenant, memory_id)",
          "CREATE TABLE IF NOT EXISTS messages ("
              + " id INTEGER PRIMARY KEY,"
              + " tenant TEXT NOT NULL, scope_key TEXT NOT NULL,"
              + " role TEXT NOT NULL, name TEXT, content TEXT NOT NULL,"
              + " ts_s INTEGER, ts_ns INTEGER, source_id TEXT)",
          "CREATE INDEX IF NOT EXISTS messages_scope ON messages (tenant, scope_key, id)",
          "CREATE TABLE IF NOT EXISTS summaries ("
              + " tenant TEXT NOT NULL, scope_key TEXT NOT NULL, text TEXT NOT NULL,"
              + " PRIMARY KEY (tenant, scope_key)) WITHOUT ROWID",
          "CREATE TABLE IF NOT EXISTS graph_entities ("
              + " tenant TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, norm_name TEXT NOT NULL,"
              + " type TEXT NOT NULL, embedding BLOB NOT NULL, mentions INTEGER NOT NULL,"
              + " created_s INTEGER NOT NULL, created_ns INTEGER NOT NULL,"
              + " updated_s INTEGER NOT NULL, updated_ns INTEGER NOT NULL,"
              + " user_id TEXT, agent_id TEXT, run_id TEXT, "
              + ENTITY_ALIASES_COLUMN
              + ","
              + " PRIMARY KEY (tenant, id))",
          "CREATE INDEX IF NOT EXISTS graph_entities_name ON graph_entities (tenant, norm_name)",
          "CREATE INDEX IF NOT EXISTS graph_entities_scope ON graph_entities (tenant, user_id, agent_id, run_id)",
          "CREATE TABLE IF NOT EXISTS graph_relations ("
              + " tenant TEXT NOT NULL, id TEXT NOT NULL, source_id TEXT NOT NULL, name TEXT NOT NULL,"
              + " target_id TEXT NOT NULL, fact TEXT NOT NULL, embedding BLOB NOT NULL,"
              + " valid_s INTEGER, valid_ns INTEGER, invalid_s INTEGER, invalid_ns INTEGER,"
              + " created_s INTEGER NOT NULL, created_ns INTEGER NOT NULL, expired_s INTEGER, expired_ns INTEGER,"
              + " source_ids TEXT NOT NULL, memory_ids TEXT NOT NULL,"
              + " user_id TEXT, agent_id TEXT, run_id TEXT,"
              + " PRIMARY KEY (tenant, id))",
          "CREATE INDEX IF NOT EXISTS graph_relations_source ON graph_relations (tenant, source_id)",
          "CREATE INDEX IF NOT EXISTS graph_relations_target ON graph_relations (tenant, target_id)",
          "CREATE INDEX IF NOT EXISTS graph_relations_scope ON graph_relations (tenant, user_id, agent_id, run_id)",
          // Which relations name which memory in memory_ids, kept by triggers; an INSERT OR REPLACE
          // fires only the
          // insert trigger (delete triggers of REPLACE need recursive triggers), so that one clears
          // the old rows first.
          "CREATE TABLE IF NOT EXISTS "
              + RELATION_MEMORIES
              + " ("
              + " tenant TEXT NOT NULL, memory_id TEXT NOT NULL, relation_id TEXT NOT NULL,"
              + " PRIMARY KEY (tenant, memory_id, relation_id)) WITHOUT ROWID",
          "CREATE INDEX IF NOT EXISTS graph_relation_memories_relation ON "
              + RELATION_MEMORIES
              + " (tenant, relation_id)",
          "CREATE TRIGGER IF NOT EXISTS graph_relations_memories_insert AFTER INSERT ON graph_relations BEGIN"
              + " DELETE FROM "
              + RELATION_MEMORIES
              + " WHERE tenant = NEW.tenant AND relation_id = NEW.id;"
              + " INSERT OR IGNORE INTO "
              + RELATION_MEMORIES
              + " (tenant, memory_id, relation_id)"
              + " SELECT NEW.tenant, j.value, NEW.id FROM json_each(NEW.memory_ids) j; END",
          "CREATE TRIGGER IF NOT EXISTS graph_relations_memories_update AFTER UPDATE OF tenant, id, memory_ids"
              + " ON graph_relations BEGIN"
              + " DELETE FROM "
              + RELATION_MEMORIES
              + " WHERE tenant = OLD.tenant AND relation_id = OLD.id;"
              + " INSERT OR IGNORE INTO "
              + RELATION_MEMORIES
              + " (tenant, memory_id, relation_id)"
              + " SELECT NEW.tenant, j.value, NEW.id FROM json_each(NEW.memory_ids) j; END",
          "CREATE TRIGGER IF NOT EXISTS graph_relations_memories_delete AFTER DELETE ON graph_relations BEGIN"
              + " DELETE FROM "
              + RELATION_MEMORIES
              + " WHERE tenant = OLD.tenant AND relation_id = OLD.id; END",
          "CREATE TABLE IF NOT EXISTS "
              + GRAPH_OUTBOX
              + " ("
              + " seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, changes TEXT NOT NULL)");

  /**
   * The alias table, its index and triggers; run after {@code graph_entities.aliases} exists. The
   * triggers follow {@link #RELATION_MEMORIES}'s: the insert trigger clears the entity's old rows
   * because an INSERT OR REPLACE fires no delete trigger.
   */
  private static final List<String> ALIAS_DDL =
      List.of(
          "CREATE TABLE IF NOT EXISTS "
              + ENTITY_ALIASES
              + " ("
              + " tenant TEXT NOT NULL, entity_id TEXT NOT NULL, alias TEXT NOT NULL,"
              + " user_id TEXT, agent_id TEXT, run_id TEXT,"
              + " PRIMARY KEY (tenant, entity_id, alias)) WITHOUT ROWID",
          // A lookup seeks (tenant, alias) and checks the scope ids from the index; a scope may
          // leave any of them
          // unset (containment), so they follow the alias rather than precede it.
          "CREATE INDEX IF NOT EXISTS "
              + ENTITY_ALIASES_INDEX
              + " ON "
              + ENTITY_ALIASES
              + " (tenant, alias, user_id, agent_id, run_id)",
          "CREATE TRIGGER IF NOT EXISTS graph_entities_aliases_insert AFTER INSERT ON graph_entities BEGIN"
              + " DELETE FROM "
              + ENTITY_ALIASES
              + " WHERE tenant = NEW.tenant AND entity_id = NEW.id;"
              + " INSERT OR IGNORE INTO "
              + ENTITY_ALIASES
              + " (tenant, entity_id, alias, user_id, agent_id, run_id)"
              + " SELECT NEW.tenant, NEW.id, j.value, NEW.user_id, NEW.agent_id, NEW.run_id"
              + " FROM json_each(NEW.aliases) j; END",
          "CREATE TRIGGER IF NOT EXISTS graph_entities_aliases_update AFTER UPDATE OF tenant, id, aliases, user_id,"
              + " agent_id, run_id ON graph_entities BEGIN"
              + " DELETE FROM "
              + ENTITY_ALIASES
              + " WHERE tenant = OLD.tenant AND entity_id = OLD.id;"
              + " INSERT OR IGNORE INTO "
              + ENTITY_ALIASES
              + " (tenant, entity_id, alias, user_id, agent_id, run_id)"
              + " SELECT NEW.tenant, NEW.id, j.value, NEW.user_id, NEW.agent_id, NEW.run_id"
              + " FROM json_each(NEW.aliases) j; END",
          "CREATE TRIGGER IF NOT EXISTS graph_entities_aliases_delete AFTER DELETE ON graph_entities BEGIN"
              + " DELETE FROM "
              + ENTITY_ALIASES
              + " WHERE tenant = OLD.tenant AND entity_id = OLD.id; END");

  private static final String GET = "SELECT value FROM meta WHERE key = ?";
  private static final String PUT =
      "INSERT INTO meta (key, value) VALUES (?, ?)"
          + " ON CONFLICT (key) DO UPDATE SET value = excluded.value";

  private Schema() {}

  /**
   * Creates missing tables and checks the schema version; runs inside the caller's write
   * transaction.
   */
  static void create(Handle db, String file) throws SQLException {
    boolean indexedMemories = tableExists(db, RELATION_MEMORIES);
    boolean indexedAliases = tableExists(db, ENTITY_ALIASES);
    for (String ddl : DDL) {
      db.exec(ddl);
    }
    if (!indexedMemories) {
      // A file written before the table existed: index the relations it already holds.
      db.exec(
          "INSERT OR IGNORE INTO "
              + RELATION_MEMORIES
              + " (tenant, memory_id, relation_id)"
              + " SELECT r.tenant, j.value, r.id FROM graph_relations r, json_each(r.memory_ids) j");
    }
    if (!columnExists(db, "history", "pipeline")) {
      // A file written before history rows recorded their pipeline: every existing row reads
      // unknown.
      db.exec("ALTER TABLE history ADD COLUMN " + HISTORY_PIPELINE_COLUMN);
    }
    if (!columnExists(db, "memories", "context")) {
      // A file written before memories kept their source context: every existing memory has none.
      db.exec("ALTER TABLE memories ADD COLUMN " + MEMORY_CONTEXT_COLUMN);
    }
    if (!columnExists(db, "memories", "context_embedding")) {
      // A file written before contexts were embedded: every existing memory has no context
      // embedding.
      db.exec("ALTER TABLE memories ADD COLUMN " + MEMORY_CONTEXT_EMBEDDING_COLUMN);
    }
    if (!columnExists(db, "graph_entities", "aliases")) {
      // A file written before entities had aliases: every existing entity gets [].
      db.exec("ALTER TABLE graph_entities ADD COLUMN " + ENTITY_ALIASES_COLUMN);
    }
    for (String ddl : ALIAS_DDL) {
      db.exec(ddl);
    }
    if (!indexedAliases) {
      db.exec(
          "INSERT OR IGNORE INTO "
              + ENTITY_ALIASES
              + " (tenant, entity_id, alias, user_id, agent_id, run_id)"
              + " SELECT e.tenant, e.id, j.value, e.user_id, e.agent_id, e.run_id FROM graph_entities e,"
              + " json_each(e.aliases) j");
    }
    Optional<String> version = get(db, SCHEMA_VERSION);
    if (version.isEmpty()) {
      put(db, SCHEMA_VERSION, Integer.toString(VERSION));
      put(db, GENERATION, "0");
      return;
    }
    int found;
    try {
      found = Integer.parseInt(version.get());
    } catch (NumberFormatException e) {
      throw new StorageException(
          "SQLite store "
              + file
              + ": meta.schema_version is '"
              + version.get()
              + "', not a number; is this an Engram database?");
    }
    if (found != VERSION) {
      throw new StorageException(
          "SQLite store "
              + file
              + " has schema version "
              + found
              + ", but this Engram "
              + "reads version "
              + VERSION
              + (found > VERSION ? "; it was written by a newer Engram" : ""));
    }
  }

  private static boolean tableExists(Handle db, String name) throws SQLException {
    PreparedStatement ps =
        db.cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    ps.setString(1, name);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next();
    }
  }

  private static boolean columnExists(Handle db, String table, String column) throws SQLException {
    // table is a constant of this class, never input.
    PreparedStatement ps =
        db.cached("SELECT 1 FROM pragma_table_info('" + table + "') WHERE name = ?");
    ps.setString(1, column);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next();
    }
  }

  static Optional<String> get(Handle db, String key) throws SQLException {
    PreparedStatement ps = db.cached(GET);
    ps.setString(1, key);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
    }
  }

  static void put(Handle db, String key, String value) throws SQLException {
    PreparedStatement ps = db.cached(PUT);
    ps.setString(1, key);
    ps.setString(2, value);
    ps.executeUpdate();
  }

  /** The last sequence number handed out by {@code history}'s AUTOINCREMENT (0 if none). */
  static long lastSeq(Handle db) throws SQLException {
    PreparedStatement ps = db.cached("SELECT seq FROM sqlite_sequence WHERE name = 'history'");
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }
}
