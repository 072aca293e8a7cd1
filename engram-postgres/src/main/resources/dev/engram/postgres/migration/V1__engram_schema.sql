-- Engram's PostgreSQL schema, version 1. Identifiers and strings compare byte-wise (COLLATE "C") so that
-- equality and order never depend on the database's locale; Java's UTF-16 order for filter ranges is
-- engram_utf16_key below.

-- One row: the change feed's last sequence number, the generation (bumped by every reset) and the embedding
-- model. Every write updates last_seq first, so the row lock orders writers of all processes: sequence numbers
-- are committed in order and the feed has no holes that fill in later.
CREATE TABLE store_state (
  id smallint PRIMARY KEY CHECK (id = 1),
  last_seq bigint NOT NULL,
  generation bigint NOT NULL,
  embedding_model text,
  embedding_dimension integer
);
INSERT INTO store_state (id, last_seq, generation) VALUES (1, 0, 0);

CREATE TABLE memories (
  tenant text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C",
  agent_id text COLLATE "C",
  run_id text COLLATE "C",
  actor_id text COLLATE "C",
  role text COLLATE "C",
  text text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  -- the metadata exactly as written (json keeps number spellings such as -0.0)
  metadata json NOT NULL,
  -- the strings of the memory lower-cased in Java (root locale), for icontains:
  -- {"user_id": ..., "memory": ..., "metadata": {...}, "source_id": [...], ...}
  folded json NOT NULL,
  created_s bigint NOT NULL, created_ns integer NOT NULL,
  updated_s bigint NOT NULL, updated_ns integer NOT NULL,
  event_s bigint, event_ns integer,
  source_ids json NOT NULL,
  expiration_day integer,
  embedding real[] NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
  seq bigint NOT NULL,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX memories_listing ON memories (tenant, user_id, created_s DESC, created_ns DESC, id);
CREATE INDEX memories_agent ON memories (tenant, agent_id, created_s DESC, created_ns DESC, id);
CREATE INDEX memories_run ON memories (tenant, run_id);
CREATE INDEX memories_hash ON memories (tenant, hash);
CREATE INDEX memories_expiration ON memories (tenant, expiration_day);
CREATE INDEX memories_text ON memories USING gin (tsv);

-- The audit trail and the change feed; rows outlive the memory they describe.
CREATE TABLE history (
  seq bigint PRIMARY KEY,
  tenant text COLLATE "C" NOT NULL,
  memory_id text COLLATE "C" NOT NULL,
  event text NOT NULL CHECK (event IN ('ADD', 'UPDATE', 'DELETE')),
  old_text text, new_text text, actor_id text, role text,
  at_s bigint NOT NULL, at_ns integer NOT NULL
);
CREATE INDEX history_memory ON history (tenant, memory_id, seq);

CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant text COLLATE "C" NOT NULL,
  scope_key text COLLATE "C" NOT NULL,
  role text NOT NULL, name text, content text NOT NULL,
  ts_s bigint, ts_ns integer, source_id text
);
CREATE INDEX messages_scope ON messages (tenant, scope_key, id);

CREATE TABLE summaries (
  tenant text COLLATE "C" NOT NULL,
  scope_key text COLLATE "C" NOT NULL,
  text text NOT NULL,
  PRIMARY KEY (tenant, scope_key)
);

-- A string whose byte order (COLLATE "C") is the UTF-16 code unit order of t, which is Java's String.compareTo:
-- each UTF-16 unit u becomes the code point 0x10000 + u (4 UTF-8 bytes, order preserving).
CREATE FUNCTION engram_utf16_key(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(CASE WHEN cp < 65536 THEN chr(65536 + cp)
    ELSE chr(65536 + 55296 + ((cp - 65536) >> 10)) || chr(65536 + 56320 + ((cp - 65536) & 1023)) END,
    '' ORDER BY i), '') COLLATE "C"
  FROM (SELECT ascii(c) AS cp, i FROM unnest(string_to_array(t, NULL)) WITH ORDINALITY AS x(c, i)) s
$$;

-- The cosine similarity of two vectors of equal length (0 if either is zero): the exact path without pgvector.
CREATE FUNCTION engram_cosine(a real[], b real[]) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN sum(x::float8 * x) = 0 OR sum(y::float8 * y) = 0 THEN 0
    ELSE sum(x::float8 * y) / sqrt(sum(x::float8 * x) * sum(y::float8 * y)) END
  FROM unnest(a, b) AS v(x, y)
$$;
