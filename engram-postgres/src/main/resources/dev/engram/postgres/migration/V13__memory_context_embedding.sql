-- A memory's context embedding (dev.engram.spi.StoredMemory#contextEmbedding): the embedding of its source context
-- followed by its text, written when the engine embeds contexts (Engram.Builder#contextEmbeddings), '{}' otherwise
-- (every memory stored before this migration, every memory stored with the setting off, and every memory an older
-- Engram writes without the column). Searched by PostgresSearchIndex.contextDense.
--
-- A column with a constant default, added in the catalog alone: instant on any size of schema, like V12's
-- (PostgresMemoryContextEmbeddingMigrationTest: the table keeps its file). An older Engram's insert gets '{}'; its
-- update leaves the column as it was, as it leaves context and context_tsv (V12): the three stay in step.
--
-- No vector index and no pgvector column. The context search is exact over the scope's rows that have one, found
-- through an index on (tenant, <scope id>) as the context keyword search finds them (V12 says why that is the way
-- for the context columns): a user's or a conversation's memories, not millions. A generated vector column like the
-- pgvector path's embedding_vector would rewrite the table when added, and could not hold the empty arrays.
ALTER TABLE memories
  ADD COLUMN context_embedding real[] NOT NULL DEFAULT '{}';
