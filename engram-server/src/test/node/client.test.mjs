// The official mem0ai MemoryClient (npm 3.3.1) against engram serve. Started by OfficialMem0ClientTest, which passes
// the server's URL and an admin key of a fresh tenant in ENGRAM_URL and ENGRAM_KEY (and MEM0_TELEMETRY=false, so the
// client sends nothing anywhere else). Every client method is called and its result checked, not only its status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryClient } from "mem0ai";

const host = process.env.ENGRAM_URL;
const apiKey = process.env.ENGRAM_KEY;
assert.ok(host && apiKey, "ENGRAM_URL and ENGRAM_KEY must be set");

const client = new MemoryClient({ apiKey, host });

async function awaitEvent(eventId) {
  for (let i = 0; i < 600; i++) {
    const r = await fetch(`${host}/v1/event/${eventId}/`, { headers: { Authorization: `Token ${apiKey}` } });
    assert.equal(r.status, 200);
    const e = await r.json();
    if (e.status === "SUCCEEDED" || e.status === "FAILED") return e;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`event ${eventId} did not finish`);
}

test("the official mem0ai client works against engram serve", async (t) => {
  let maxId, lisbonId;

  await t.test("ping (the client's constructor) resolves the tenant", async () => {
    await client.ping();
    assert.equal(client.organizationId, process.env.ENGRAM_TENANT);
    assert.equal(client.projectId, process.env.ENGRAM_TENANT);
  });

  await t.test("add is asynchronous: an event id, then the event's results", async () => {
    const r = await client.add([{ role: "user", content: "I adopted a puppy called Max" }],
      { userId: "alice", infer: false, metadata: { topic: "pets" } });
    assert.equal(r.status, "PENDING");
    assert.match(r.eventId, /^[0-9a-f-]{36}$/);
    const e = await awaitEvent(r.eventId);
    assert.equal(e.status, "SUCCEEDED", e.error);
    assert.equal(e.results.length, 1);
    assert.equal(e.results[0].data.memory, "I adopted a puppy called Max");
    assert.equal(e.results[0].event, "ADD");
    maxId = e.results[0].id;
  });

  await t.test("add with async_mode false answers with the results; a message without a time gets the server's", async () => {
    const r = await client.add("Yesterday I moved to Lisbon", { userId: "alice", infer: true, asyncMode: false });
    assert.equal(r.status, "SUCCEEDED");
    assert.equal(r.results.length, 1);
    lisbonId = r.results[0].id;
    const m = await client.get(lisbonId);
    assert.match(m.memory, /^Yesterday \(\d{1,2} [A-Z][a-z]+ \d{4}\) .*moved to Lisbon/);
    assert.ok(m.eventTime, "event_time is the request's time");
    assert.ok(Math.abs(Date.parse(m.eventTime) - Date.now()) < 5 * 60 * 1000);
  });

  await t.test("search finds by meaning within the scope named by filters", async () => {
    // the fixture embeds with word hashing, so the relevance score needs a shared word ("puppy")
    const r = await client.search("which puppy does alice have", { filters: { user_id: "alice" }, topK: 5 });
    assert.ok(Array.isArray(r.results));
    assert.equal(r.results[0].id, maxId);
    assert.equal(r.results[0].memory, "I adopted a puppy called Max");
    assert.ok(r.results[0].score > 0 && r.results[0].score <= 1);
    assert.deepEqual(r.results[0].metadata, { topic: "pets" });
    const filtered = await client.search("where", { filters: { AND: [{ user_id: "alice" }, { metadata: { topic: "pets" } }] } });
    assert.deepEqual(filtered.results.map((x) => x.id), [maxId]);
    const other = await client.search("puppy", { filters: { user_id: "bob" } });
    assert.deepEqual(other.results, []);
  });

  await t.test("getAll pages the scope's memories", async () => {
    const all = await client.getAll({ filters: { user_id: "alice" }, page: 1, pageSize: 1 });
    assert.equal(all.count, 2);
    assert.equal(all.results.length, 1);
    assert.ok(all.next);
    const second = await client.getAll({ filters: { user_id: "alice" }, page: 2, pageSize: 1 });
    assert.equal(second.results.length, 1);
    assert.equal(second.next, null);
    assert.notEqual(second.results[0].id, all.results[0].id);
  });

  await t.test("get, update and history", async () => {
    const m = await client.get(maxId);
    assert.equal(m.memory, "I adopted a puppy called Max");
    assert.equal(m.userId, "alice");
    const u = await client.update(maxId, { text: "Alice has a dog called Max", metadata: { topic: "dogs" } });
    assert.equal(u.memory, "Alice has a dog called Max");
    const h = await client.history(maxId);
    assert.deepEqual(h.map((x) => x.event), ["ADD", "UPDATE"]);
    assert.equal(h[1].oldMemory, "I adopted a puppy called Max");
    assert.equal(h[1].newMemory, "Alice has a dog called Max");
  });

  await t.test("batchUpdate and batchDelete", async () => {
    const b = await client.add("I like green tea", { userId: "bob", infer: false, asyncMode: false });
    const teaId = b.results[0].id;
    const u = await client.batchUpdate([{ memoryId: teaId, text: "Bob likes jasmine tea" }]);
    assert.match(u.message, /updated 1/);
    assert.equal((await client.get(teaId)).memory, "Bob likes jasmine tea");
    const d = await client.batchDelete([teaId]);
    assert.match(d.message, /deleted 1/);
    await assert.rejects(client.get(teaId), (err) => err.name === "MemoryNotFoundError");
  });

  await t.test("users lists entities with counts", async () => {
    await client.add("I run every morning", { agentId: "coach", infer: false, asyncMode: false });
    const u = await client.users();
    const byName = Object.fromEntries(u.results.map((e) => [`${e.type}:${e.name}`, e]));
    assert.equal(byName["user:alice"].totalMemories, 2);
    assert.equal(byName["agent:coach"].totalMemories, 1);
    assert.equal(u.totalUsers, 1);
    assert.equal(u.totalAgents, 1);
  });

  await t.test("exports", async () => {
    const created = await client.createMemoryExport({ schema: { type: "object" }, filters: { user_id: "alice" } });
    assert.ok(created.id);
    const got = await client.getMemoryExport({ memoryExportId: created.id });
    assert.equal(got.results.length, 2);
    const byFilters = await client.getMemoryExport({ filters: { user_id: "alice" } });
    assert.equal(byFilters.count, 2);
  });

  await t.test("delete removes one memory", async () => {
    const r = await client.delete(lisbonId);
    assert.match(r.message, /deleted/);
    await assert.rejects(client.get(lisbonId), (err) => err.name === "MemoryNotFoundError");
  });

  await t.test("deleteUsers removes an entity's memories", async () => {
    const r = await client.deleteUsers({ agentId: "coach" });
    assert.equal(r.message, "Entity deleted successfully.");
    const all = await client.getAll({ filters: { agent_id: "coach" } });
    assert.equal(all.count, 0);
  });

  await t.test("deleteAll removes a scope", async () => {
    const r = await client.deleteAll({ userId: "alice" });
    assert.match(r.message, /deleted/);
    const all = await client.getAll({ filters: { user_id: "alice" } });
    assert.equal(all.count, 0);
    const u = await client.users();
    assert.equal(u.results.length, 0);
  });

  await t.test("a wrong key is refused with the client's authentication error", async () => {
    const bad = new MemoryClient({ apiKey: "eng_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", host });
    await assert.rejects(bad.getAll({ filters: { user_id: "alice" } }), (err) => err.name === "AuthenticationError" || /401|invalid/.test(err.message));
  });
});
