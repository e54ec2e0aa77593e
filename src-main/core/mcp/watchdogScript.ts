// The source of the process watchdog (docs/sessions.md, "Server processes never outlive Mooring"): a plain
// Node script with no dependencies, run as `node -e WATCHDOG_SCRIPT <owner pid>` by processWatchdog.ts. It is
// a string, not a file, so every host (the CLI through tsx, a bundle) can start it without locating a file on
// disk; the real-process tests in test/integration/watchdog.test.ts run it as shipped.
//
// Protocol, one line each, on its stdin (Mooring → watchdog):
//   track PID [TAG]    a server process Mooring just spawned (its own process group and session), and the
//                      value of MOORING_SERVER_TAG in its environment, which its descendants inherit
//   snapshot ID PID    note PID's whole tree now, then answer "done ID" on stdout (before a clean close:
//                      once the server exits, a grandchild that called setsid is reparented and no longer
//                      reachable through parent pids)
//   reap PID           the server is gone or closing: end what is left of its tree (and the snapshot), forget it
// End of stdin means Mooring died (or exited): end every tracked tree, then exit.
//
// Ending a tree: every process whose parent is in it, every member of its process groups and sessions, and
// (Linux) every process whose environment carries the server's tag — a descendant that detached (setsid, a
// double fork) and was reparented once its parent exited is found by it — found again at kill time (Linux:
// /proc; macOS: ps), SIGTERM, up to 2 s of grace, then SIGKILL to whatever is left. A process is known by
// pid and start time, so a recycled pid is never signalled.
export const WATCHDOG_SCRIPT = String.raw`'use strict';
// mooring-watchdog
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const GRACE_MS = 2000;
const POLL_MS = 100;
const self = process.pid;
const owner = Number(process.argv[1]);
const roots = new Map(); // tracked server pid -> start time
const snapshots = new Map(); // server pid -> Map(pid -> start time)
const tags = new Map(); // server pid -> the MOORING_SERVER_TAG value its processes inherit
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Terminal signals are for Mooring, not for the one process that must outlive it.
for (const sig of ['SIGINT', 'SIGHUP', 'SIGQUIT']) process.on(sig, () => {});

// Linux: one /proc/PID/stat. The command name is in parentheses and may hold spaces or parentheses, so the
// fields are split after the last one: state ppid pgrp session … starttime (field 22).
function procStat(pid) {
  let stat;
  try { stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); } catch { return undefined; }
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: +f[1], pgid: +f[2], sid: +f[3], start: f[19], zombie: f[0] === 'Z' };
}

// macOS (no /proc, no session ids): ps.
function psList(pid) {
  const out = new Map();
  let text = '';
  const args = ['-o', 'pid=,ppid=,pgid=,lstart='];
  try {
    text = execFileSync('/bin/ps', pid ? [...args, '-p', String(pid)] : ['-A', ...args], { encoding: 'utf8' });
  } catch { return out; }
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*\S)\s*$/.exec(line);
    if (m) out.set(+m[1], { ppid: +m[2], pgid: +m[3], sid: -1, start: m[4], zombie: false });
  }
  return out;
}

function list() {
  if (process.platform !== 'linux') return psList();
  const out = new Map();
  let names = [];
  try { names = fs.readdirSync('/proc'); } catch { return out; }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const p = procStat(name);
    if (p) out.set(Number(name), p);
  }
  return out;
}

// Linux: the processes whose environment holds one of the tags (their first environment: what they were
// started with, inherited from the server however far they detached).
function tagged(tagList, procs) {
  const out = new Map();
  if (process.platform !== 'linux' || !tagList.length) return out;
  const marks = tagList.map((t) => Buffer.from('MOORING_SERVER_TAG=' + t + '\0'));
  for (const [pid, p] of procs) {
    if (pid === self || pid === owner || pid <= 1) continue;
    let env;
    try { env = fs.readFileSync('/proc/' + pid + '/environ'); } catch { continue; }
    if (marks.some((m) => env.includes(m))) out.set(pid, p.start);
  }
  return out;
}

function startOf(pid) {
  const p = process.platform === 'linux' ? procStat(pid) : psList(pid).get(pid);
  return p ? p.start : undefined;
}

// The processes of the given trees. roots: tracked servers (group and session leaders); extra: processes
// seen in a tree before (snapshot), taken only while they are alive with the same start time.
function collect(rootMap, extra, procs) {
  const found = new Map();
  const groups = new Set();
  const sessions = new Set();
  const take = (pid, p) => {
    found.set(pid, p.start);
    if (p.pgid === pid) groups.add(pid);
    if (p.sid === pid) sessions.add(pid);
  };
  for (const [pid, start] of rootMap) {
    // Gone before it was tracked (no start time to know it by): its pid may name another process by now —
    // on a busy machine pids wrap within seconds — so it is never signalled, nor its group or session.
    if (start === undefined) continue;
    const p = procs.get(pid);
    if (p && p.start !== start) continue; // the pid names another process now
    // A leader that is gone still names its group and session while members are left (the kernel does not
    // reuse a pid that is still some group's or session's id).
    groups.add(pid);
    sessions.add(pid);
    if (p) take(pid, p);
  }
  for (const [pid, start] of extra) {
    const p = procs.get(pid);
    if (p && p.start === start) take(pid, p);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of procs) {
      if (found.has(pid) || pid === self || pid === owner || pid <= 1) continue;
      if (groups.has(p.pgid) || (p.sid > 0 && sessions.has(p.sid)) || found.has(p.ppid)) {
        take(pid, p);
        grew = true;
      }
    }
  }
  found.delete(self);
  found.delete(owner);
  return { found, groups };
}

function signal(tree, sig) {
  for (const pid of tree.found.keys()) {
    try { process.kill(pid, sig); } catch {}
  }
  for (const g of tree.groups) {
    if (g === self || g === owner || g <= 1) continue;
    try { process.kill(-g, sig); } catch {}
  }
}

const alive = (found, procs) =>
  [...found].some(([pid, start]) => {
    const p = procs.get(pid);
    return p && p.start === start && !p.zombie;
  });

async function end(rootMap, extra) {
  const first = list();
  const tagList = [...rootMap.keys()].map((pid) => tags.get(pid)).filter(Boolean);
  extra = new Map([...extra, ...tagged(tagList, first)]);
  let tree = collect(rootMap, extra, first);
  if (!tree.found.size && !tree.groups.size) return;
  signal(tree, 'SIGTERM');
  const seen = new Map([...extra, ...tree.found]);
  for (const until = Date.now() + GRACE_MS; Date.now() < until; ) {
    await sleep(POLL_MS);
    const procs = list();
    tree = collect(rootMap, seen, procs);
    for (const [pid, start] of tree.found) seen.set(pid, start);
    if (!alive(tree.found, procs)) return;
  }
  signal(collect(rootMap, seen, list()), 'SIGKILL');
}

const reaping = new Set(); // ends of single trees in progress (a clean close), finished before exiting
let ending;
function endAll() {
  if (ending) return ending;
  const extra = new Map();
  for (const snap of snapshots.values()) for (const [pid, start] of snap) extra.set(pid, start);
  ending = Promise.all([...reaping, end(new Map(roots), extra)]).finally(() => process.exit(0));
  return ending;
}

function onLine(line) {
  const [cmd, a, b] = line.trim().split(' ');
  if (cmd === 'track') {
    const pid = Number(a);
    if (pid > 1) roots.set(pid, startOf(pid));
    if (pid > 1 && b && /^[0-9a-f]+$/.test(b)) tags.set(pid, b);
  } else if (cmd === 'snapshot') {
    const pid = Number(b);
    const root = new Map([[pid, roots.get(pid)]]);
    snapshots.set(pid, collect(root, new Map(), list()).found);
    try { process.stdout.write('done ' + a + '\n'); } catch {}
  } else if (cmd === 'reap') {
    const pid = Number(a);
    if (!roots.has(pid)) return;
    const root = new Map([[pid, roots.get(pid)]]);
    const extra = snapshots.get(pid) || new Map();
    // end() reads the tag before its first await: the server is forgotten right after.
    const done = end(root, extra).catch(() => {}).finally(() => reaping.delete(done));
    roots.delete(pid);
    snapshots.delete(pid);
    tags.delete(pid);
    reaping.add(done);
  }
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    onLine(line);
  }
});
process.stdin.on('end', endAll);
process.stdin.on('error', endAll);
process.stdout.on('error', () => {});
// Belt and braces: a parent that is gone without its pipe closing (it cannot, but cheap to check).
setInterval(() => { if (process.ppid !== owner) endAll(); }, 2000);
`;
