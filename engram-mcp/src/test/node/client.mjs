// Drives Engram's MCP server with the official TypeScript SDK client: lists the tools, adds a memory, searches
// for it. Usage:
//   node client.mjs stdio <user_id> <command> [args...]
//   node client.mjs http <user_id> <url> <api key>
// Prints one JSON summary line on stdout; exits 1 (with the reason on stderr) if a check fails.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, userId, ...rest] = process.argv.slice(2);
let transport;
if (mode === 'stdio') {
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
} else if (mode === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), {
    requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } },
  });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const client = new Client({ name: 'engram-ts-test', version: '1.0.0' });
try {
  await client.connect(transport);
  const server = client.getServerVersion();
  assert.equal(server.name, 'engram');

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name} input schema`);
    assert.ok(t.description.length > 80, `${t.name} description`);
  }

  const text = `${userId} learned to play the theremin in ${mode} mode`;
  const added = await client.callTool({
    name: 'add_memory',
    arguments: { user_id: userId, text, infer: false, metadata: { source: 'ts-sdk' } },
  });
  assert.notEqual(added.isError, true, JSON.stringify(added.content));
  assert.equal(added.structuredContent.results[0].event, 'ADD');
  assert.equal(added.structuredContent.results[0].memory, text);
  const addedId = added.structuredContent.results[0].id;

  const found = await client.callTool({
    name: 'search_memories',
    arguments: { user_id: userId, query: 'what instrument does the user play', top_k: 3 },
  });
  assert.notEqual(found.isError, true, JSON.stringify(found.content));
  const top = found.structuredContent.results[0];
  assert.equal(top.id, addedId);
  assert.deepEqual(top.metadata, { source: 'ts-sdk' });
  assert.ok(found.content[0].text.includes(addedId), 'the text rendering carries the id');

  const bad = await client.callTool({ name: 'search_memories', arguments: { user_id: userId, top_k: 'many' } });
  assert.equal(bad.isError, true);

  console.log(JSON.stringify({
    server: server.name,
    protocolVersion: transport.protocolVersion ?? null,
    tools: names,
    addedId,
    topId: top.id,
    topScore: top.score,
    badArgumentError: bad.content[0].text,
  }));
  await client.close();
} catch (e) {
  console.error(e && e.stack ? e.stack : e);
  try { await client.close(); } catch { /* already failing */ }
  process.exit(1);
}
