-- Covering indexes for the searches of one scope. A scope's memories arrive interleaved with every other scope's,
-- so its rows lie on as many heap pages as it has rows (1,000 pages for a user of 1,000 memories). The keyword
-- half of a search (tsv @@ query, ts_rank_cd) and the (id, seq) read of the embedding cache need only the columns
-- below, so with these indexes they read the scope's index entries, which lie together, instead of its scattered
-- rows (an index-only scan, for pages the visibility map marks all-visible, which autovacuum keeps up to date).
-- Partial: a memory enters the index of each scope id it has, and only those.
--
-- Plain CREATE INDEX blocks writes to memories while it builds (about 30 s per million memories here). To upgrade
-- a large schema without that pause, create the same indexes by hand first with CREATE INDEX CONCURRENTLY and the
-- same names; IF NOT EXISTS then makes this migration a no-op (docs/DEPLOYMENT.md, "Upgrading").
CREATE INDEX IF NOT EXISTS memories_search_user ON memories (tenant, user_id)
  INCLUDE (agent_id, run_id, expiration_day, id, seq, tsv) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS memories_search_agent ON memories (tenant, agent_id)
  INCLUDE (user_id, run_id, expiration_day, id, seq, tsv) WHERE agent_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS memories_search_run ON memories (tenant, run_id)
  INCLUDE (user_id, agent_id, expiration_day, id, seq, tsv) WHERE run_id IS NOT NULL;
