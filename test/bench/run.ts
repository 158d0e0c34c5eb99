import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { ROOT, spawnRuntime } from "../support/runtime";
import { runBundleBench } from "./bundle-size";
import { runCardPagesBench } from "./card-pages";
import { runConversationsBench } from "./conversations";
import { runDriveBench } from "./drive";
import { runGroupsBench } from "./groups";
import { runKeysBench } from "./keys";
import { runSignaturesBench } from "./signatures";

/**
 * `npm run bench`: latency and throughput of the local API, at 1, 10 and 50 concurrent
 * clients, for a password login (Argon2id-bound) and an authenticated GET. Figures, not
 * assertions: they go to bench/results.json. BENCH_SECONDS sets each run's length. Then the
 * account-key costs in Chromium (test/bench/keys.ts, bench/results-keys.json), the
 * conversation figures (test/bench/conversations.ts, bench/results-conversations.json), what the
 * signature checks of protocol v2 add to opening a conversation (test/bench/signatures.ts,
 * bench/results-signatures.json), member changes of a growing group (test/bench/groups.ts,
 * bench/results-groups.json), a large drive (test/bench/drive.ts, bench/results-drive.json), the
 * calendar and the gallery (test/bench/card-pages.ts, bench/results-card-pages.json) and the
 * SPA's initial JavaScript (test/bench/bundle-size.ts,
 * bench/results-bundle.json).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = [1, 10, 50];
const ADMIN = { email: "bench@example.ch", password: "bench-password-1" };

const runtime = await spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, POWERTOOLS_LOG_LEVEL: "ERROR" } });
try {
  const { id } = (await (await fetch(`${runtime.url}/api/users?lookup=${encodeURIComponent(ADMIN.email)}`)).json()) as { id: number };
  const loginBody = JSON.stringify({ password: ADMIN.password });
  const { api_token } = (await (await fetch(`${runtime.url}/api/users/${id}/login`, { method: "POST", body: loginBody })).json()) as { api_token: string };

  const scenarios = [
    { name: "login", method: "POST" as const, path: `/api/users/${id}/login`, body: loginBody, headers: { "content-type": "application/json" } },
    { name: "authenticated GET /api/users/{id}", method: "GET" as const, path: `/api/users/${id}`, headers: { authorization: `Bearer ${api_token}` } },
  ];
  const results = [];
  for (const scenario of scenarios) {
    for (const connections of CONCURRENCY) {
      const result = await autocannon({ url: runtime.url + scenario.path, method: scenario.method, body: scenario.body, headers: scenario.headers, connections, duration: SECONDS, timeout: 60 });
      const row = {
        scenario: scenario.name,
        clients: connections,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        rps: Math.round(result.requests.average * 10) / 10,
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
      };
      console.log(JSON.stringify(row));
      results.push(row);
    }
  }
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  const file = join(ROOT, "bench", "results.json");
  writeFileSync(file, JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, cpus: (await import("node:os")).cpus().length, secondsPerRun: SECONDS, results }, null, 2));
  console.log(`written to ${file}`);
} finally {
  await runtime.stop();
}

// Account keys in Chromium (create, unlock): bench/results-keys.json.
await runKeysBench();
// Conversations: upload throughput and memory, opening a long conversation, append and poll
// latency under 50 clients: bench/results-conversations.json.
await runConversationsBench();
// Opening a 2,000-message conversation with and without the signature checks, in the same run:
// bench/results-signatures.json.
await runSignaturesBench();
// Member changes as a group grows (an add against 100,000 records, a removal from 1,000 members):
// bench/results-groups.json.
await runGroupsBench();
// A drive of 10,000 items opened in Chromium beside the bare WebCrypto work, and a name search over
// 100,000: bench/results-drive.json.
await runDriveBench();
// The calendar with 5,000 events in a month and a gallery of 1,000 images, each beside the fetch
// and decrypt of the same records: bench/results-card-pages.json.
await runCardPagesBench();
// The SPA's initial JavaScript, gzipped, per chunk: bench/results-bundle.json.
await runBundleBench();
