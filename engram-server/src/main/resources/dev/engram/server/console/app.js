// Engram console: a small single-page app over the server's public REST API (the same routes mem0's clients call).
// No build step, no external resources: everything it loads comes from its own origin. The API key lives in this
// tab's sessionStorage only.
"use strict";

const KEY = "engram.apiKey";
const main = document.getElementById("main");
const statusBox = document.getElementById("status");

// ---------- helpers ----------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  children.flat().forEach((c) => e.append(c instanceof Node ? c : document.createTextNode(String(c))));
  return e;
}

function say(text, isError = false) {
  statusBox.textContent = text;
  statusBox.className = isError ? "error" : "";
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { statusBox.textContent = ""; }, isError ? 8000 : 3000);
}

function fmt(time) {
  return time ? new Date(time).toLocaleString() : "";
}

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
  }
}

async function api(method, path, body) {
  const headers = { Authorization: `Token ${sessionStorage.getItem(KEY) || ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const json = text ? JSON.parse(text) : null;
  if (r.status === 401 && location.hash !== "#/signin") {
    sessionStorage.removeItem(KEY);
    location.hash = "#/signin";
  }
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}

function scopeFilter(scope) {
  const [type, ...rest] = scope.split(":");
  return { [`${type}_id`]: rest.join(":") };
}

function scopeQuery(scope) {
  const [type, ...rest] = scope.split(":");
  return `${type}_id=${encodeURIComponent(rest.join(":"))}`;
}

function params() {
  const q = location.hash.split("?")[1] || "";
  return Object.fromEntries(new URLSearchParams(q));
}

async function guarded(fn) {
  try {
    await fn();
  } catch (e) {
    say(e.message, true);
  }
}

// ---------- views ----------

const views = {
  signin: viewSignIn,
  scopes: viewScopes,
  memories: viewMemories,
  memory: viewMemory,
  graph: viewGraph,
  activity: viewActivity,
};

async function route() {
  const name = (location.hash.slice(2).split("?")[0].split("/")[0]) || "scopes";
  const signedIn = !!sessionStorage.getItem(KEY);
  document.getElementById("nav").hidden = !signedIn;
  if (!signedIn && name !== "signin") {
    location.hash = "#/signin";
    return;
  }
  main.replaceChildren();
  await guarded(() => (views[name] || viewScopes)());
  main.focus();
}

async function viewSignIn() {
  const input = el("input", { id: "api-key", type: "password", autocomplete: "off", required: true });
  const error = el("p", { id: "signin-error", class: "error", role: "alert" });
  const form = el("form", { class: "card signin", "aria-labelledby": "signin-title", onsubmit: async (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(KEY, input.value.trim());
    try {
      const ping = await api("GET", "/v1/ping/");
      document.getElementById("tenant").textContent = `tenant ${ping.org_id} (${ping.role})`;
      location.hash = "#/scopes";
    } catch (e) {
      sessionStorage.removeItem(KEY);
      error.textContent = e.status === 401 ? "That key was refused: it is unknown or revoked." : e.message;
    }
  } },
  el("h2", { id: "signin-title", text: "Sign in" }),
  el("p", { class: "muted", text: "Paste an API key (engram keys create --tenant NAME). It is kept in this tab only." }),
  el("label", { for: "api-key", text: "API key" }), input,
  el("p", {}, el("button", { id: "signin-button", type: "submit", text: "Sign in" })), error);
  main.append(form);
  input.focus();
}

async function viewScopes() {
  const data = await api("GET", "/v1/entities/?page_size=1000");
  const rows = data.results.map((e) => el("tr", {},
    el("td", {}, el("a", { href: `#/memories?scope=${e.type}:${encodeURIComponent(e.name)}`, text: e.name })),
    el("td", { text: e.type }), el("td", { text: e.total_memories }), el("td", { text: fmt(e.updated_at) })));
  main.append(el("h2", { text: "Scopes" }),
    el("p", { class: "muted", text: `${data.total_users} users, ${data.total_agents} agents, ${data.total_runs} runs` }),
    el("table", { id: "scopes" }, el("thead", {}, el("tr", {}, el("th", { text: "id" }), el("th", { text: "type" }),
      el("th", { text: "memories" }), el("th", { text: "last change" }))), el("tbody", {}, rows)),
    addForm(null));
}

function addForm(scope) {
  const scopeInput = el("input", { id: "add-scope", type: "text", value: scope || "user:", placeholder: "user:alice" });
  const text = el("textarea", { id: "add-text", required: true });
  const infer = el("input", { id: "add-infer", type: "checkbox" });
  return el("form", { class: "card", "aria-labelledby": "add-title", onsubmit: (ev) => { ev.preventDefault(); guarded(async () => {
    const [type, ...rest] = scopeInput.value.split(":");
    if (!["user", "agent", "run"].includes(type) || !rest.join(":")) throw new Error("scope must be user:ID, agent:ID or run:ID");
    const r = await api("POST", "/v3/memories/add/", { messages: [{ role: "user", content: text.value }],
      [`${type}_id`]: rest.join(":"), infer: infer.checked, async_mode: false });
    say(r.status === "SUCCEEDED" ? `Added: ${r.results.map((x) => x.event).join(", ") || "nothing new"}` : `Add ${r.status}: ${r.error}`);
    text.value = "";
    route();
  }); } },
  el("h3", { id: "add-title", text: "Add a memory" }),
  el("div", { class: "row" },
    el("div", {}, el("label", { for: "add-scope", text: "Scope" }), scopeInput),
    el("div", {}, el("label", { for: "add-infer" }, infer, " Extract facts (infer)"))),
  el("label", { for: "add-text", text: "Message" }), text,
  el("p", {}, el("button", { id: "add-button", type: "submit", text: "Add" })));
}

async function viewMemories() {
  const { scope, page = "1", filters = "" } = params();
  const size = 20;
  const filterInput = el("input", { id: "filter", type: "text", value: filters,
    placeholder: '{"metadata": {"topic": "pets"}} or {"created_at": {"gte": "2024-01-01"}}' });
  const query = el("input", { id: "query", type: "text", placeholder: "what does she like?" });
  const explain = el("input", { id: "explain", type: "checkbox" });
  const results = el("div", { id: "results" });
  let extra = {};
  if (filters) {
    try { extra = JSON.parse(filters); } catch (e) { say("The filter is not JSON: " + e.message, true); }
  }
  const body = { filters: { AND: [scopeFilter(scope), ...(Object.keys(extra).length ? [extra] : [])] } };
  const data = await api("POST", `/v3/memories/?page=${page}&page_size=${size}`, body);
  main.append(el("h2", { text: `Memories of ${scope}` }),
    el("form", { class: "card", "aria-label": "Filter", onsubmit: (ev) => { ev.preventDefault();
      location.hash = `#/memories?scope=${encodeURIComponent(scope)}&filters=${encodeURIComponent(filterInput.value)}`; } },
      el("label", { for: "filter", text: "Filter (mem0's JSON filter form: eq, ne, gt, gte, lt, lte, in, nin, contains; AND, OR, NOT)" }),
      el("div", { class: "row" }, filterInput, el("button", { type: "submit", text: "Apply" })),
      filterHelper(filterInput)),
    el("form", { class: "card", "aria-label": "Search", onsubmit: (ev) => { ev.preventDefault(); guarded(async () => {
      const r = await api("POST", "/v3/memories/search/", { query: query.value, filters: body.filters, top_k: 10, explain: explain.checked });
      results.replaceChildren(el("h3", { text: `${r.results.length} results` }), memoryTable(r.results, true),
        ...(r.relations && r.relations.length ? [el("h3", { text: "Relations" }), relationList(r.relations)] : []));
    }); } },
      el("label", { for: "query", text: "Search" }),
      el("div", { class: "row" }, query, el("label", { for: "explain" }, explain, " explain scores"),
        el("button", { id: "search-button", type: "submit", text: "Search" }))),
    results,
    el("h3", { text: `${data.count} memories` }), memoryTable(data.results, false),
    el("p", {},
      Number(page) > 1 ? el("a", { href: `#/memories?scope=${encodeURIComponent(scope)}&page=${Number(page) - 1}&filters=${encodeURIComponent(filters)}`, text: "← previous" }) : null,
      " ", data.next ? el("a", { id: "next-page", href: `#/memories?scope=${encodeURIComponent(scope)}&page=${Number(page) + 1}&filters=${encodeURIComponent(filters)}`, text: "next →" }) : null),
    addForm(scope),
    el("div", { class: "card" }, el("h3", { text: "Delete this scope" }),
      el("p", { class: "muted", text: "Deletes every memory of the scope (needs an admin key). History stays." }),
      el("button", { id: "delete-scope", class: "danger", type: "button", onclick: () => guarded(async () => {
        if (!confirm(`Delete every memory of ${scope}?`)) return;
        const r = await api("DELETE", `/v1/memories/?${scopeQuery(scope)}`);
        say(`${r.count} memories deleted`);
        location.hash = "#/scopes";
      }) , text: "Delete all memories of this scope" })));
}

// Builds one condition from a field, an operator and a value and adds it to the filter text (ANDed).
function filterHelper(target) {
  const field = el("input", { id: "helper-field", type: "text", list: "helper-fields", placeholder: "topic" });
  const fields = el("datalist", { id: "helper-fields" }, ["memory", "actor_id", "role", "created_at", "updated_at",
    "event_time", "expiration_date", "source_id"].map((f) => el("option", { value: f })));
  const op = el("select", { id: "helper-op" }, ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains"]
    .map((o) => el("option", { value: o, text: o })));
  const value = el("input", { id: "helper-value", type: "text", placeholder: "pets (a list: a, b)" });
  return el("div", { class: "row" },
    el("div", {}, el("label", { for: "helper-field", text: "Field (or a metadata key)" }), field, fields),
    el("div", {}, el("label", { for: "helper-op", text: "Operator" }), op),
    el("div", {}, el("label", { for: "helper-value", text: "Value" }), value),
    el("button", { id: "helper-add", type: "button", class: "secondary", text: "Add condition", onclick: () => {
      if (!field.value) return say("Name a field first", true);
      const parse = (v) => (v !== "" && !isNaN(Number(v)) ? Number(v) : v === "true" ? true : v === "false" ? false : v);
      const v = ["in", "nin"].includes(op.value) ? value.value.split(",").map((x) => parse(x.trim())) : parse(value.value);
      const condition = { [field.value]: op.value === "eq" ? v : { [op.value]: v } };
      let current = {};
      try { current = target.value.trim() ? JSON.parse(target.value) : {}; } catch (e) { return say("The filter is not JSON", true); }
      const merged = Object.keys(current).length ? { AND: [...(current.AND || [current]), condition] } : condition;
      target.value = JSON.stringify(merged);
    } }));
}

function memoryTable(items, withScore) {
  const head = ["memory", ...(withScore ? ["score"] : []), "actor", "event time", "updated", "metadata", "expires"];
  return el("table", { class: "memories" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { text: h })))),
    el("tbody", {}, items.map((m) => el("tr", {},
      el("td", {}, el("a", { href: `#/memory/${m.id}`, text: m.memory })),
      ...(withScore ? [el("td", {}, (m.score ?? 0).toFixed(3),
        m.score_details ? el("div", { class: "muted explain" }, Object.entries(m.score_details)
          .filter(([, v]) => typeof v === "number").map(([k, v]) => `${k} ${v.toFixed(3)}`).join(" · ")) : null)] : []),
      el("td", { text: m.actor_id || m.role || "" }), el("td", { text: fmt(m.event_time) }),
      el("td", { text: fmt(m.updated_at) }), el("td", { text: m.metadata ? JSON.stringify(m.metadata) : "" }),
      el("td", { text: m.expiration_date || "" })))));
}

// What each history pipeline name means (dev.engram.ChangePipelines); other names are shown as they are.
const PIPELINES = {
  raw: "added verbatim, infer off",
  offline: "offline extractor (no LLM)",
  consolidate: "LLM extraction and consolidation",
  additive: "LLM extraction, add only",
  verbatim: "verbatim inference",
  infer: "inference",
  update: "edited through the API",
  delete: "deleted through the API",
  delete_all: "bulk delete of the scope",
  expiry: "expired and purged",
  import: "imported from a mem0 export",
  unknown: "recorded before pipelines were kept",
};

function pipelineLabel(name) {
  const pipeline = name || "unknown";
  return el("span", { class: "pipeline", "data-pipeline": pipeline },
    "· by ", el("code", { text: pipeline }), PIPELINES[pipeline] ? el("span", { class: "muted", text: ` (${PIPELINES[pipeline]})` }) : null);
}

function relationList(relations) {
  return el("ul", {}, relations.map((r) => el("li", { class: r.invalid_at ? "muted" : "" },
    `${r.source} —${r.relationship}→ ${r.destination}`, r.fact ? ` (“${r.fact}”)` : "",
    r.invalid_at ? ` — invalid since ${fmt(r.invalid_at)}` : "")));
}

async function viewMemory() {
  const id = location.hash.split("/")[2].split("?")[0];
  const m = await api("GET", `/v1/memories/${id}/`);
  const history = await api("GET", `/v1/memories/${id}/history/`);
  const relations = await api("GET", `/v1/memories/${id}/relations/?include_invalidated=true`);
  const text = el("textarea", { id: "edit-text" });
  text.value = m.memory;
  const metadata = el("textarea", { id: "edit-metadata" });
  metadata.value = m.metadata ? JSON.stringify(m.metadata, null, 1) : "";
  const scope = m.user_id ? `user:${m.user_id}` : m.agent_id ? `agent:${m.agent_id}` : `run:${m.run_id}`;
  main.append(el("h2", { text: "Memory" }),
    el("p", {}, el("a", { href: `#/memories?scope=${encodeURIComponent(scope)}`, text: `← ${scope}` })),
    el("form", { class: "card", "aria-label": "Edit", onsubmit: (ev) => { ev.preventDefault(); guarded(async () => {
      const body = { text: text.value };
      if (metadata.value.trim()) body.metadata = JSON.parse(metadata.value);
      await api("PUT", `/v1/memories/${id}/`, body);
      say("Saved");
      route();
    }); } },
      el("label", { for: "edit-text", text: "Text" }), text,
      el("label", { for: "edit-metadata", text: "Metadata (JSON)" }), metadata,
      el("p", { class: "row" }, el("button", { id: "save-button", type: "submit", text: "Save" }),
        el("button", { id: "delete-button", class: "danger", type: "button", text: "Delete", onclick: () => guarded(async () => {
          if (!confirm("Delete this memory? Its history stays.")) return;
          await api("DELETE", `/v1/memories/${id}/`);
          say("Deleted");
          location.hash = `#/memories?scope=${encodeURIComponent(scope)}`;
        }) }))),
    el("dl", { class: "card" },
      el("dt", { text: "id" }), el("dd", { text: m.id }),
      el("dt", { text: "event time" }), el("dd", { text: fmt(m.event_time) || "unknown" }),
      el("dt", { text: "created / updated" }), el("dd", { text: `${fmt(m.created_at)} / ${fmt(m.updated_at)}` }),
      el("dt", { text: "provenance: source messages" }), el("dd", { id: "provenance", text: (m.source_ids || []).join(", ") || "none recorded" })),
    el("h3", { text: "History" }),
    el("ol", { id: "history", class: "timeline" }, history.map((h) => el("li", {},
      el("span", { class: `badge ${h.event}`, text: h.event }), " ", fmt(h.created_at), " ",
      h.old_memory ? el("del", { text: h.old_memory }) : null, h.old_memory && h.new_memory ? " → " : "",
      h.new_memory ? el("ins", { text: h.new_memory }) : null,
      h.actor_id || h.role ? el("span", { class: "muted", text: ` (${[h.actor_id, h.role].filter(Boolean).join(", ")})` }) : null,
      " ", pipelineLabel(h.pipeline)))),
    el("h3", { text: "Graph relations learned from it" }),
    relations.relations.length ? relationList(relations.relations) : el("p", { class: "muted", text: "none (graph memory may be off)" }));
}

async function viewGraph() {
  const p = params();
  const scope = el("input", { id: "graph-scope", type: "text", value: p.scope || "user:", placeholder: "user:alice" });
  const entity = el("input", { id: "graph-entity", type: "text", value: p.entity || "" });
  const asOf = el("input", { id: "graph-asof", type: "datetime-local", value: p.as_of || "" });
  const showAll = el("input", { id: "graph-all", type: "checkbox", checked: p.all === "true" });
  const detail = el("div", { id: "edge-detail", class: "card", "aria-live": "polite" }, el("p", { class: "muted", text: "Select an edge to see its fact and validity." }));
  const go = () => {
    const q = new URLSearchParams({ scope: scope.value, entity: entity.value, as_of: asOf.value, all: String(showAll.checked) });
    location.hash = `#/graph?${q}`;
  };
  main.append(el("h2", { text: "Graph" }),
    el("form", { class: "card", "aria-label": "Graph query", onsubmit: (ev) => { ev.preventDefault(); go(); } },
      el("div", { class: "row" },
        el("div", {}, el("label", { for: "graph-scope", text: "Scope" }), scope),
        el("div", {}, el("label", { for: "graph-entity", text: "Entity" }), entity),
        el("div", {}, el("label", { for: "graph-asof", text: "As of (what held then)" }), asOf),
        el("div", {}, el("label", { for: "graph-all" }, showAll, " include invalidated")),
        el("button", { id: "graph-button", type: "submit", text: "Show" }))));
  asOf.addEventListener("change", go);
  if (!p.entity || !p.scope || !p.scope.includes(":")) return;
  const q = new URLSearchParams({ entity: p.entity, hops: "2", include_invalidated: String(p.all === "true") });
  if (p.as_of) q.set("as_of", new Date(p.as_of).toISOString());
  const data = await api("GET", `/v1/graph/around/?${scopeQuery(p.scope)}&${q}`);
  main.append(drawGraph(data.relations, detail), detail);
}

function drawGraph(relations, detail) {
  const names = [...new Set(relations.flatMap((r) => [r.source, r.destination]))];
  const width = 900, height = 480, cx = width / 2, cy = height / 2, radius = Math.min(cx, cy) - 60;
  const pos = Object.fromEntries(names.map((n, i) => [n, names.length === 1 ? [cx, cy]
    : [cx + radius * Math.cos((2 * Math.PI * i) / names.length), cy + radius * Math.sin((2 * Math.PI * i) / names.length)]]));
  const edges = relations.map((r, i) => {
    const [x1, y1] = pos[r.source], [x2, y2] = pos[r.destination];
    const invalid = !!r.invalid_at;
    const show = () => detail.replaceChildren(el("h3", { text: `${r.source} —${r.relationship}→ ${r.destination}` }),
      el("p", { text: r.fact || "" }),
      el("p", { text: `valid ${fmt(r.valid_at) || "since unknown"} – ${fmt(r.invalid_at) || "now"}${invalid ? " (invalidated)" : ""}` }),
      el("p", { class: "muted", text: `learned ${fmt(r.created_at)}${r.expired_at ? `, retired ${fmt(r.expired_at)}` : ""}` }),
      el("p", {}, "Supporting memories: ", ...(r.memory_ids || []).map((id) => el("a", { href: `#/memory/${id}`, text: id.slice(0, 8) + " " }))));
    return svg("g", { class: `edge${invalid ? " invalid" : ""}`, tabindex: "0", role: "button", "data-index": i,
      "aria-label": `${r.source} ${r.relationship} ${r.destination}${invalid ? ", invalidated" : ""}`,
      onclick: show, onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); show(); } } },
      svg("line", { x1, y1, x2, y2 }),
      svg("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4 }, r.relationship));
  });
  const nodes = names.map((n) => svg("g", { class: "node" },
    svg("circle", { cx: pos[n][0], cy: pos[n][1], r: 28 }),
    svg("text", { x: pos[n][0], y: pos[n][1] + 4 }, n.length > 14 ? n.slice(0, 13) + "…" : n)));
  if (!relations.length) return el("p", { id: "graph-empty", class: "muted", text: "No relations for this entity at that time." });
  return svg("svg", { class: "graph", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `graph of ${names.length} entities and ${relations.length} relations` },
    ...edges, ...nodes);
}

async function viewActivity() {
  const data = await api("GET", "/v1/events/?page_size=50");
  main.append(el("h2", { text: "Activity" }), el("p", { class: "muted", text: `${data.count} add events` }),
    el("table", { id: "events" }, el("thead", {}, el("tr", {}, ["when", "status", "results", "model calls / tokens", "error"]
      .map((h) => el("th", { text: h })))),
    el("tbody", {}, data.results.map((e) => el("tr", {},
      el("td", { text: fmt(e.created_at) }), el("td", {}, el("span", { class: `badge ${e.status}`, text: e.status })),
      el("td", {}, e.results.map((r) => el("div", {}, el("span", { class: `badge ${r.event}`, text: r.event }), " ",
        el("a", { href: `#/memory/${r.id}`, text: r.memory })))),
      el("td", { text: e.usage ? `${e.usage.llm_calls} / ${e.usage.prompt_tokens} in, ${e.usage.completion_tokens} out` : "—" }),
      el("td", { class: "error", text: e.error || "" }))))));
}

// ---------- start ----------

document.getElementById("signout").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  location.hash = "#/signin";
});
window.addEventListener("hashchange", route);
if (sessionStorage.getItem(KEY)) {
  api("GET", "/v1/ping/").then((p) => { document.getElementById("tenant").textContent = `tenant ${p.org_id} (${p.role})`; })
    .catch(() => {});
}
route();
