-- Which path through the engine made each history row's change (dev.engram.ChangePipelines: raw, offline,
-- consolidate, additive, update, delete, delete_all, expiry, import, ...). Rows written before this migration,
-- and rows an older Engram writes without the column, read as 'unknown'.
ALTER TABLE history ADD COLUMN pipeline text NOT NULL DEFAULT 'unknown';
