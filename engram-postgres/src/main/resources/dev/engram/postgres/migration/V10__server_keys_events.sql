-- The tables of `engram serve` (engram-server-postgres), so that any number of servers on this schema share their
-- API keys and their asynchronous add events. Times are ISO-8601 text as the server's clock gave them (kept
-- exactly); a lease end is epoch milliseconds, compared with the claiming server's clock.

-- API keys: only the SHA-256 hash of a key is stored; the id (inside the key) finds the row.
CREATE TABLE server_api_keys (
  id text COLLATE "C" PRIMARY KEY,
  tenant text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL,
  label text NOT NULL,
  prefix text COLLATE "C" NOT NULL,
  hash bytea NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  revoked_at text COLLATE "C"
);

-- Accepted adds. A server runs an event only after claiming it (status RUNNING, owner, lease_until_ms); an event
-- whose lease ended is claimed again by any server.
CREATE TABLE server_add_events (
  id text COLLATE "C" PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  tenant text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  payload text NOT NULL,
  results text,
  error text,
  created_at text COLLATE "C" NOT NULL,
  started_at text COLLATE "C",
  completed_at text COLLATE "C",
  owner text COLLATE "C",
  lease_until_ms bigint
);
CREATE INDEX server_add_events_tenant ON server_add_events (tenant, seq);
CREATE INDEX server_add_events_unfinished ON server_add_events (seq) WHERE status IN ('PENDING', 'RUNNING');
CREATE INDEX server_add_events_owner ON server_add_events (owner) WHERE status = 'RUNNING';
