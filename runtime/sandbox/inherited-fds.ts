// File descriptors the service would pass on to the hosts it starts without meaning to: those it
// inherited from whatever started it (a terminal, the desktop app, a test harness) that are not
// marked close-on-exec. Node marks the ones it opens; these it did not open. Each host closes them
// before any component code runs, so a component cannot read or write through them.
import fs from 'node:fs';

/** Descriptors from `from` up that a child process would inherit (Linux: read from /proc; elsewhere none are known). */
export function inheritedFds(from = 5): number[] {
  if (process.platform !== 'linux') return [];
  const fds: number[] = [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < from) continue;
    try {
      const flags = /^flags:\s+([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      // O_CLOEXEC is 02000000 in the octal flags fdinfo shows.
      if (flags !== undefined && (parseInt(flags, 8) & 0o2000000) === 0) fds.push(fd);
    } catch {
      // closed meanwhile (the descriptor readdir itself used)
    }
  }
  return fds;
}
