import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { cpus } from "node:os";

/**
 * This bench's own processes (its descendants) by kind, from /proc (Linux only; elsewhere none):
 * Chromium's renderer, its network service, the rest of the browser, the local runtime's Node
 * process (the API, s3rver and its signature gate) and DynamoDB Local. The machine is shared, so
 * another job's browser or runtime must not count here.
 */
export type ProcessKind = "renderer" | "network" | "browser" | "runtime" | "dynamodb";
export type ProcessCpu = Partial<Record<ProcessKind, number>>;

interface OwnProcess {
  pid: number;
  kind: ProcessKind;
  /** /proc/{pid}/status */
  status: string;
  /** User and system CPU time so far, ms. */
  ms: number;
}

function kindOf(command: string): ProcessKind | null {
  if (command.includes("--type=renderer")) return "renderer";
  if (command.includes("network.mojom")) return "network";
  if (command.includes("chrom")) return "browser";
  if (command.includes("java")) return "dynamodb";
  if (command.includes("packages/local/src/main.ts")) return "runtime";
  return null;
}

export function ownProcesses(): OwnProcess[] {
  const processes = new Map<number, { parent: number; command: string; status: string; ms: number }>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name: state, parent, …, utime (12th), stime (13th), in clock ticks.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      processes.set(Number(pid), { parent: Number(fields[1]), command, status: readFileSync(`/proc/${pid}/status`, "utf8"), ms: (Number(fields[11]) + Number(fields[12])) * tick });
    } catch {
      // The process ended meanwhile.
    }
  }
  const isOurs = (pid: number) => {
    for (let at = processes.get(pid)?.parent ?? 0, depth = 0; at > 1 && depth < 32; at = processes.get(at)?.parent ?? 0, depth++) if (at === process.pid) return true;
    return false;
  };
  const own: OwnProcess[] = [];
  for (const [pid, { command, status, ms }] of processes) {
    const kind = kindOf(command);
    if (kind && isOurs(pid)) own.push({ pid, kind, status, ms });
  }
  return own;
}

/** CPU time (user + system, ms) of this bench's processes by kind, so far: a step's figure is `cpuSince` a reading before it. */
export function processCpu(): ProcessCpu {
  const cpu: ProcessCpu = {};
  for (const { kind, ms } of ownProcesses()) cpu[kind] = (cpu[kind] ?? 0) + ms;
  return cpu;
}

/** The CPU ms each kind used since `before`. */
export function cpuSince(before: ProcessCpu): ProcessCpu {
  const now = processCpu();
  return Object.fromEntries(Object.entries(now).map(([kind, ms]) => [kind, Math.round(ms - (before[kind as ProcessKind] ?? 0))]));
}

const isBrowser = (kind: ProcessKind) => kind === "renderer" || kind === "network" || kind === "browser";

/**
 * BENCH_SPLIT_CORES=1: Chromium on the first core, the runtime and DynamoDB Local on the others
 * (every thread, with taskset), as when the browser and the server are different machines. On a
 * shared pair of cores the browser's work otherwise takes CPU from the server's answers, which on
 * AWS it cannot; both sides of a comparison run pinned alike. Chromium's later processes inherit
 * it. Answers whether it split them; `unsplitCores` gives the server every core again.
 */
export function splitCores(): boolean {
  if (process.env.BENCH_SPLIT_CORES !== "1" || cpus().length < 2) return false;
  pin((kind) => (isBrowser(kind) ? "0" : `1-${cpus().length - 1}`));
  return true;
}

export const unsplitCores = () => pin((kind) => (isBrowser(kind) ? null : `0-${cpus().length - 1}`));

function pin(coresOf: (kind: ProcessKind) => string | null): void {
  for (const p of ownProcesses()) {
    const cores = coresOf(p.kind);
    if (cores) spawnSync("taskset", ["-a", "-p", "-c", cores, String(p.pid)], { stdio: "ignore" });
  }
}
