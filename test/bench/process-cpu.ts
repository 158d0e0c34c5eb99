import { readFileSync, readdirSync } from "node:fs";

/**
 * CPU time (user + system, ms) of this process's descendants, by kind: Chromium's renderer, its
 * network service, the rest of the browser, the local runtime's Node process (the API, s3rver and
 * its signature gate) and DynamoDB Local. Linux only (/proc); elsewhere an empty record. A bench
 * takes it before and after a step (`cpuSince`) to show where a step's CPU went on a shared machine.
 */
export type ProcessCpu = Record<string, number>;

function kindOf(command: string): string | null {
  if (command.includes("--type=renderer")) return "renderer";
  if (command.includes("network.mojom")) return "network";
  if (command.includes("chrom")) return "browser";
  if (command.includes("java")) return "dynamodb";
  if (command.includes("packages/local/src/main.ts")) return "runtime";
  return null;
}

export function processCpu(): ProcessCpu {
  const processes = new Map<number, { parent: number; command: string; ms: number }>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return {};
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      processes.set(Number(pid), { parent: Number(fields[1]), command: readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " "), ms: (Number(fields[11]) + Number(fields[12])) * tick });
    } catch {
      // The process ended meanwhile.
    }
  }
  const isOurs = (pid: number) => {
    for (let at = processes.get(pid)?.parent ?? 0, depth = 0; at > 1 && depth < 32; at = processes.get(at)?.parent ?? 0, depth++) if (at === process.pid) return true;
    return false;
  };
  const cpu: ProcessCpu = {};
  for (const [pid, { command, ms }] of processes) {
    const kind = kindOf(command);
    if (kind && isOurs(pid)) cpu[kind] = (cpu[kind] ?? 0) + ms;
  }
  return cpu;
}

/** The CPU ms each kind used since `before`. */
export function cpuSince(before: ProcessCpu): ProcessCpu {
  const now = processCpu();
  return Object.fromEntries(Object.keys(now).map((kind) => [kind, Math.round(now[kind]! - (before[kind] ?? 0))]));
}
