// Compares search libraries for the catalogue search (ADR 014): index build time, heap held by the index, serialized
// size, query latency and whether each one meets the search requirements (one typo, transpositions included, in words of
// five letters or more; accents; prefix of the word being typed; AND of the words; name matches first).
//
//   node --expose-gc scripts/bench-search-libraries.mjs            (10,000 products; BENCH_PRODUCTS=n for another size)
//
// MiniSearch is the project's dependency. FlexSearch and Orama are only measured when they can be imported, from the
// project or from SEARCH_LIBS_DIR, e.g. installed outside the project:
//   mkdir -p /tmp/search-libs && cd /tmp/search-libs && npm init -y && npm i flexsearch@0.8.212 @orama/orama@3.1.18
//   SEARCH_LIBS_DIR=/tmp/search-libs/node_modules node --expose-gc scripts/bench-search-libraries.mjs
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateProducts } from "./lib/generate-catalogue.mjs";

const PRODUCT_COUNT = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const BUILD_RUNS = 5;
const QUERY_WARMUP_ROUNDS = 20;
const QUERY_ROUNDS = 50;
/** No library gets to cut the result list short: the catalogue pages through, and shows, every match. */
const RESULT_LIMIT = PRODUCT_COUNT;
const QUERIES = [
  "vault",
  "vualt",
  "vaúlt",
  "stu",
  "kestrel studio",
  "capture ultimate",
  "vault utilities",
  "amber",
  "edition",
  "zzzz",
];
const KESTREL_VAULT_ID = 446889;
const CATEGORY_LABELS = { utilities: "Utilities", creator: "Creator Tools" };

// ---------------------------------------------------------------------------------------------------------------------
// Loading the candidates: normal resolution first (the project's node_modules), then SEARCH_LIBS_DIR.

async function importLibrary(specifier) {
  try {
    return await import(specifier);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  const dir = process.env.SEARCH_LIBS_DIR;
  if (!dir) return null;
  try {
    // A require rooted in that folder finds `<dir>/<specifier>` (its CommonJS entry; import() of it works the same).
    const resolved = createRequire(path.join(path.resolve(dir), "_resolve_from_here.js")).resolve(specifier);
    return await import(pathToFileURL(resolved).href);
  } catch (error) {
    if (error?.code !== "MODULE_NOT_FOUND") throw error;
    return null;
  }
}

/** A named export, whether the module came in as ESM or as CommonJS (then it hangs off `default`). */
const pick = (mod, name) => mod[name] ?? mod.default?.[name];

// ---------------------------------------------------------------------------------------------------------------------
// What every library indexes: the same flat documents.

function searchDocuments(products) {
  return products.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    features: p.features.join(" \n "),
    categoryLabel: CATEGORY_LABELS[p.category] ?? p.category,
  }));
}

/** Lowercase, accents off: "Vaúlt" → "vault". */
const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Each swap of two adjacent, different letters: "vualt" → uvalt, vault, vulat, vuatl. */
function adjacentTranspositions(word) {
  const variants = new Set();
  for (let i = 0; i < word.length - 1; i++) {
    if (word[i] !== word[i + 1]) variants.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return [...variants];
}

// ---------------------------------------------------------------------------------------------------------------------
// Candidates. Each: build(docs) → index; search(index, query) → ids, best first; serialize(index) → string | null.

function miniSearchCandidate(MiniSearch) {
  const tokenize = MiniSearch.getDefault("tokenize");
  const options = {
    fields: ["name", "description", "features", "categoryLabel"],
    processTerm: (term) => fold(term) || null,
    searchOptions: {
      prefix: true,
      combineWith: "AND",
      fuzzy: (term) => (term.length >= 5 ? 1 : false),
      boost: { name: 3 },
    },
  };
  /**
   * One subquery per word, ANDed. A word of 5+ letters is itself (prefix, fuzzy 1: one insertion, deletion or
   * substitution) OR one of its adjacent transpositions, exact: Levenshtein counts a swap as two edits.
   */
  const queryTree = (text) => ({
    combineWith: "AND",
    queries: tokenize(text)
      .map(fold)
      .filter(Boolean)
      .map((word) =>
        word.length >= 5
          ? {
              combineWith: "OR",
              queries: [word, { queries: adjacentTranspositions(word), fuzzy: false, prefix: false }],
            }
          : word,
      ),
  });
  return {
    name: `MiniSearch ${libraryVersion("minisearch")}`,
    build(docs) {
      const index = new MiniSearch(options);
      index.addAll(docs);
      return index;
    },
    // Boost 3 alone is not enough: for "kestrel studio", Preset Packs (both words in description and features) outscores
    // Kestrel Studio (both in the name). So results are ordered by how many matched terms the name holds, then score.
    search: (index, query) =>
      index
        .search(queryTree(query))
        .map((r) => ({
          id: r.id,
          score: r.score,
          inName: Object.values(r.match).filter((fields) => fields.includes("name")).length,
        }))
        .sort((a, b) => b.inName - a.inName || b.score - a.score)
        .map((r) => r.id),
    serialize: (index) => JSON.stringify(index),
    cannot: [],
  };
}

function flexSearchCandidate(FlexSearch, { tokenize, encoder, label, note }) {
  const Document = pick(FlexSearch, "Document");
  const Charset = pick(FlexSearch, "Charset");
  return {
    name: `FlexSearch ${libraryVersion("flexsearch")} (${tokenize}, ${label})`,
    build(docs) {
      // A field's query is ANDed within that field only, so "vault utilities" (name + category) needs one field
      // holding every text; `name` is a field of its own so its matches can be listed first.
      const index = new Document({
        tokenize,
        encoder: Charset[encoder],
        document: { id: "id", index: ["name", "text"] },
      });
      for (const d of docs) {
        index.add({
          id: d.id,
          name: d.name,
          text: `${d.name} \n ${d.description} \n ${d.features} \n ${d.categoryLabel}`,
        });
      }
      return index;
    },
    search(index, query) {
      const byField = Object.fromEntries(index.search(query, { limit: RESULT_LIMIT }).map((r) => [r.field, r.result]));
      const ids = new Set(byField.name ?? []);
      for (const id of byField.text ?? []) ids.add(id);
      return [...ids];
    },
    async serialize(index) {
      const parts = {};
      await index.export((key, data) => {
        parts[key] = data;
      });
      return JSON.stringify(parts);
    },
    cannot: [
      note,
      "no per-field boost across fields: results come per field and are merged by hand (name first)",
      "AND only within a field, hence the extra all-text field",
    ],
  };
}

function oramaCandidate(Orama) {
  const create = pick(Orama, "create");
  const insert = pick(Orama, "insert");
  const search = pick(Orama, "search");
  const save = pick(Orama, "save");
  return {
    name: `Orama ${libraryVersion("@orama/orama")}`,
    build(docs) {
      const db = create({
        schema: { name: "string", description: "string", features: "string", categoryLabel: "string" },
      });
      for (const d of docs) insert(db, { ...d, id: String(d.id) });
      return db;
    },
    async search(db, query) {
      // One tolerance per search, not per word: 1 when any word has 5+ letters (then short words get it too).
      const tolerance = fold(query)
        .split(/\s+/)
        .some((w) => w.length >= 5)
        ? 1
        : 0;
      // threshold 0: every word must match (within one property); limit: all matches.
      let result = search(db, { term: query, tolerance, threshold: 0, boost: { name: 3 }, limit: RESULT_LIMIT });
      if (result instanceof Promise) result = await result;
      return result.hits.map((h) => Number(h.id));
    },
    serialize: (db) => JSON.stringify(save(db)),
    cannot: [
      "tolerance is plain Levenshtein, one value for the whole query: a transposition is 2 edits",
      "AND (threshold 0) only within one property: words spread over name and category find nothing",
      "the English tokenizer splits words at accented letters other than àèéìòóù (`vaúlt` → `va`, `lt`)",
      "its token normalization cache keeps every distinct query word for the life of the index",
    ],
  };
}

/** The installed version, read from the package.json above the entry point (some packages do not export it). */
function libraryVersion(name) {
  const roots = [
    import.meta.url,
    process.env.SEARCH_LIBS_DIR && pathToFileURL(path.join(path.resolve(process.env.SEARCH_LIBS_DIR), "_")).href,
  ];
  for (const root of roots.filter(Boolean)) {
    let dir;
    try {
      dir = path.dirname(createRequire(root).resolve(name));
    } catch {
      continue;
    }
    for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
      try {
        const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
        if (pkg.name === name) return pkg.version;
      } catch {}
    }
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------------------------------
// Measuring.

const median = (xs) => quantile(xs, 0.5);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
const collect = () => {
  globalThis.gc?.();
  globalThis.gc?.();
};
const maybeAwait = (value) => (value instanceof Promise ? value : null);

async function measure(candidate, docs, products) {
  const buildTimes = [];
  for (let run = 0; run < BUILD_RUNS; run++) {
    collect();
    const start = performance.now();
    candidate.build(docs);
    buildTimes.push(performance.now() - start);
  }

  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = candidate.build(docs);
  collect();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;

  const serialized = candidate.serialize ? await candidate.serialize(index) : null;

  const run = async (query) => {
    const out = candidate.search(index, query);
    return maybeAwait(out) ? await out : out;
  };
  for (let round = 0; round < QUERY_WARMUP_ROUNDS; round++) for (const q of QUERIES) await run(q);
  const samples = [];
  const perQuery = Object.fromEntries(QUERIES.map((q) => [q, []]));
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const q of QUERIES) {
      const start = performance.now();
      const out = candidate.search(index, q);
      if (out instanceof Promise) await out;
      const us = (performance.now() - start) * 1000;
      samples.push(us);
      perQuery[q].push(us);
    }
  }

  const byId = new Map(products.map((p) => [p.id, p]));
  const results = {};
  for (const q of QUERIES) results[q] = await run(q);
  const findsVault = (q) => {
    const rank = results[q].indexOf(KESTREL_VAULT_ID);
    return rank < 0 ? "no" : `yes (#${rank + 1})`;
  };
  const studioFirst = (q) => {
    const top = byId.get(results[q][0])?.name ?? "nothing";
    return /^Kestrel Studio/.test(top) ? "yes" : `no (${top})`;
  };
  return {
    name: candidate.name,
    buildMs: median(buildTimes),
    heapMb: heapGrowth / 1048576,
    serializedKb: serialized == null ? null : Buffer.byteLength(serialized) / 1024,
    queryMedianUs: median(samples),
    queryP95Us: quantile(samples, 0.95),
    vualt: findsVault("vualt"),
    accented: findsVault("vaúlt"),
    zzzzEmpty: results.zzzz.length === 0 ? "yes" : `no (${results.zzzz.length})`,
    studioFirst: `${studioFirst("stu")} / ${studioFirst("kestrel studio")}`,
    counts: Object.fromEntries(QUERIES.map((q) => [q, results[q].length])),
    perQueryUs: Object.fromEntries(QUERIES.map((q) => [q, median(perQuery[q])])),
    cannot: candidate.cannot,
  };
}

// ---------------------------------------------------------------------------------------------------------------------

const fmt = (n, digits = 1) =>
  n == null ? "n/a" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const products = generateProducts(PRODUCT_COUNT);
  const docs = searchDocuments(products);

  const candidates = [];
  const MiniSearchModule = await importLibrary("minisearch");
  if (MiniSearchModule)
    candidates.push(miniSearchCandidate(MiniSearchModule.default?.default ?? MiniSearchModule.default));
  const FlexSearch = await importLibrary("flexsearch");
  const Orama = await importLibrary("@orama/orama");
  if (FlexSearch) {
    // FlexSearch has no edit distance; typos are tolerated by a phonetic encoder or by the `tolerant` tokenizer.
    const variants = [
      ["forward", "Normalize", "no typo tolerance at all"],
      [
        "forward",
        "LatinExtra",
        "phonetic codes, not edit distance: `zzzz` encodes to `s` and prefix-matches every product",
      ],
      [
        "tolerant",
        "Normalize",
        "the `tolerant` tokenizer (swapped or missing letters) replaces `forward`: no prefix search",
      ],
    ];
    for (const [tokenize, encoder, note] of variants) {
      candidates.push(flexSearchCandidate(FlexSearch, { tokenize, encoder, label: encoder, note }));
    }
  }
  if (Orama) candidates.push(oramaCandidate(Orama));
  const missing = [!FlexSearch && "flexsearch", !Orama && "@orama/orama"].filter(Boolean);

  console.log(`# Catalogue search libraries, ${PRODUCT_COUNT.toLocaleString("en-US")} generated products`);
  console.log();
  console.log(
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${os.cpus()[0]?.model.trim()} × ${os.availableParallelism()} · build median of ${BUILD_RUNS}, queries ${QUERY_ROUNDS} rounds of ${QUERIES.length} after ${QUERY_WARMUP_ROUNDS} warm-up rounds`,
  );
  if (missing.length) {
    console.log();
    console.log(
      `> Skipped ${missing.join(", ")} (not installed): npm i --no-save flexsearch@0.8.212 @orama/orama@3.1.18 — or install them elsewhere and set SEARCH_LIBS_DIR=<that>/node_modules`,
    );
  }
  if (typeof globalThis.gc !== "function") {
    console.log();
    console.log(
      "> Note: global.gc() is unavailable, so heap growth includes garbage; run with `node --expose-gc` for the real figure.",
    );
  }

  const rows = [];
  for (const candidate of candidates) {
    rows.push(await measure(candidate, docs, products));
    collect();
  }

  console.log();
  console.log(
    "| Library | Build (ms) | Heap (MB) | Serialized (KB) | Query median (µs) | Query p95 (µs) | `vualt` → Kestrel Vault | `vaúlt` → Kestrel Vault | `zzzz` → nothing | Kestrel Studio first for `stu` / `kestrel studio` |",
  );
  console.log("|---|--:|--:|--:|--:|--:|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmt(r.buildMs, 0)} | ${fmt(r.heapMb)} | ${r.serializedKb == null ? "n/a" : fmt(r.serializedKb, 0)} | ${fmt(r.queryMedianUs, 0)} | ${fmt(r.queryP95Us, 0)} | ${r.vualt} | ${r.accented} | ${r.zzzzEmpty} | ${r.studioFirst} |`,
    );
  }

  console.log();
  console.log("Matches per query (median µs):");
  console.log();
  console.log(`| Query | ${rows.map((r) => r.name).join(" | ")} |`);
  console.log(`|---|${rows.map(() => "--:").join("|")}|`);
  for (const q of QUERIES) {
    console.log(
      `| \`${q}\` | ${rows.map((r) => `${r.counts[q].toLocaleString("en-US")} (${fmt(r.perQueryUs[q], 0)})`).join(" | ")} |`,
    );
  }

  const limits = rows.filter((r) => r.cannot.length);
  if (limits.length) {
    console.log();
    for (const r of limits) console.log(`- ${r.name} cannot: ${r.cannot.join("; ")}.`);
  }
}

await main();
