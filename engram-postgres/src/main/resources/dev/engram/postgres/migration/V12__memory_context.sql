-- A memory's source context (dev.engram.spi.StoredMemory#context): the words of the conversation messages it was
-- drawn from and of the message before them, '' when unknown (every memory stored before this migration, and every
-- memory an older Engram writes without the column). Searched by keyword only (PostgresSearchIndex.contextKeyword).
--
-- context_tsv is its tsvector ('english', as tsv is of text). It is written by Engram with the context
-- (MemoryRows: context_tsv = to_tsvector('english', <the same parameter>)) rather than GENERATED like tsv, because
-- adding a stored generated column rewrites the whole table and rebuilds every index on it (the HNSW index of the
-- pgvector path too) under an exclusive lock, while a column with a constant default is added in the catalog alone:
-- this migration is instant on any size of schema (PostgresMemoryContextMigrationTest: the table keeps its file).
-- Every writer keeps the two in step: Engram writes both; an older Engram writes neither (its inserts get '' and the
-- empty tsvector, its updates leave both as they were).
--
-- No index on context_tsv. The context half of a search reads one scope's rows, found through an index on (tenant,
-- <scope id>) (memories_listing, memories_agent, memories_run of V1 or those of V11), and tests each row's context_tsv
-- (ScopeSearchIndexOnlyTest reads the plans): a GIN index would add an entry per distinct word of every context
-- (contexts are several messages long) to each write and could not narrow a search to one scope (a word's entries span
-- every scope of the tenant); adding context_tsv to the covering indexes of V11 would make them several times larger,
-- slowing the index-only scans of the text keyword half and of the embedding cache, and a long context would exceed a
-- B-tree entry's size limit and fail the write. The price is a visit to each of the scope's rows (as the text keyword
-- half paid before V11).
ALTER TABLE memories
  ADD COLUMN context text NOT NULL DEFAULT '',
  ADD COLUMN context_tsv tsvector NOT NULL DEFAULT ''::tsvector;
