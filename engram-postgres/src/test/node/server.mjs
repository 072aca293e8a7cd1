// Serves an in-memory PGlite (PostgreSQL compiled to WebAssembly) with the pgvector extension on 127.0.0.1.
// Usage: node server.mjs [dataDir]. Listens on a free port and prints "LISTENING <port>" once ready; stops when
// stdin closes (the Java test that started it exited) or on SIGTERM.
//
// PGlite is one PostgreSQL session. A JDBC connection that ends leaves that session's prepared statements,
// settings and advisory locks behind, which would clash with the next connection's (the driver names its
// statements S_1, S_2, ...), so each connection's end resets the session.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const dataDir = process.argv[2];
const db = await PGlite.create({ dataDir, extensions: { vector } });

class ResettingServer extends PGLiteSocketServer {
  async handleConnection(socket) {
    socket.on('close', () => {
      db.exec('DEALLOCATE ALL; SELECT pg_advisory_unlock_all(); RESET ALL;').catch((e) => {
        console.error('could not reset the session:', e.message);
      });
    });
    return super.handleConnection(socket);
  }
}

// two connections: a closing connection's handler is removed a moment after its socket closes, and the next
// connection (a reopened pool) must not be refused meanwhile; the Java side never uses two at once
const server = new ResettingServer({ db, host: '127.0.0.1', port: 0, maxConnections: 2 });
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
