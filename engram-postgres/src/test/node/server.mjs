// Serves an in-memory PGlite (PostgreSQL compiled to WebAssembly) with the pgvector extension on 127.0.0.1.
// Usage: node server.mjs [dataDir]. Listens on a free port and prints "LISTENING <port>" once ready; stops when
// stdin closes (the Java test that started it exited) or on SIGTERM.
//
// PGlite is one PostgreSQL session: every connection shares its prepared statements, settings and locks, so the
// Java tests connect without named server-side statements (prepareThreshold=0) and with one connection per pool.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const dataDir = process.argv[2];
const db = await PGlite.create({ dataDir, extensions: { vector } });

// a few connections: a closing connection's handler is removed a moment after its socket closes, and the next
// (a reopened pool) must not be refused meanwhile; an export/import test holds two stores open at once. Their
// statements are queued onto the one session (a transaction's statements are kept together).
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
await server.start();
const port = Number(server.getServerConn().split(':').pop());
console.log(`LISTENING ${port}`);

const stop = async () => {
  await server.stop();
  await db.close();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
