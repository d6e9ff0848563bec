// @ts-check
// CPU time spent by each process of a measure (Linux: /proc), so that a figure per purchase
// can be given whatever else runs on the machine: wall-clock rates move with the load of the
// other users of the cores, the CPU a purchase costs much less.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

let ticksPerSecond = 0;
function clockTicks() {
  if (!ticksPerSecond) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Whether this system tells the CPU time of other processes (Linux's /proc). */
export const canMeasureCpu = existsSync("/proc/self/stat");

/**
 * User + system CPU time of a process so far, in ms (0 when it has ended).
 * @param {number} pid
 */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command's name in parentheses: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return 0;
  }
}

/**
 * The processes a process started (a cluster's workers).
 * @param {number} pid
 * @returns {number[]}
 */
export function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU ms so far of the shop's processes and of the emulator's.
 * @param {{ pid: number | undefined, emulatorPid: number | undefined }} shop
 * @returns {{ primary: number, workers: number, emulator: number }}
 */
export function shopCpuMs(shop) {
  const workers = shop.pid ? childPids(shop.pid).reduce((sum, pid) => sum + processCpuMs(pid), 0) : 0;
  return {
    primary: shop.pid ? processCpuMs(shop.pid) : 0,
    workers,
    emulator: shop.emulatorPid ? processCpuMs(shop.emulatorPid) : 0,
  };
}
