-- The graph memory (entities and relations), written in the same transaction as the memories of an add.
-- Scope ids are columns matched as Scope.contains does; times are (epoch second, nano) pairs.
CREATE TABLE graph_entities (
  tenant text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  norm_name text COLLATE "C" NOT NULL,
  type text NOT NULL,
  embedding real[] NOT NULL,
  mentions integer NOT NULL,
  created_s bigint NOT NULL, created_ns integer NOT NULL,
  updated_s bigint NOT NULL, updated_ns integer NOT NULL,
  user_id text COLLATE "C", agent_id text COLLATE "C", run_id text COLLATE "C",
  aliases text[] COLLATE "C" NOT NULL,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX graph_entities_name ON graph_entities (tenant, norm_name);
CREATE INDEX graph_entities_aliases ON graph_entities USING gin (aliases);
CREATE INDEX graph_entities_scope ON graph_entities (tenant, user_id, agent_id, run_id);

CREATE TABLE graph_relations (
  tenant text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  source_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  target_id text COLLATE "C" NOT NULL,
  fact text NOT NULL,
  embedding real[] NOT NULL,
  valid_s bigint, valid_ns integer,
  invalid_s bigint, invalid_ns integer,
  created_s bigint NOT NULL, created_ns integer NOT NULL,
  expired_s bigint, expired_ns integer,
  source_ids text[] NOT NULL,
  memory_ids text[] COLLATE "C" NOT NULL,
  user_id text COLLATE "C", agent_id text COLLATE "C", run_id text COLLATE "C",
  PRIMARY KEY (tenant, id)
);
CREATE INDEX graph_relations_source ON graph_relations (tenant, source_id);
CREATE INDEX graph_relations_target ON graph_relations (tenant, target_id);
CREATE INDEX graph_relations_scope ON graph_relations (tenant, user_id, agent_id, run_id);
CREATE INDEX graph_relations_memories ON graph_relations USING gin (memory_ids);
