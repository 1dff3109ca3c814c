// `npm start` (scripts/start.js) hands the service, or the Electron app, the read end of a pipe on
// the descriptor SPOUT_LIFELINE_FD names. The kernel closes the launcher's end however the launcher
// ends, a `kill -9` included, so the child stops with it instead of keeping its port.
import fs from 'node:fs';
import net from 'node:net';

/** Calls `onGone` once when the launcher that started this process has ended; does nothing when no launcher gave a lifeline. */
export function watchLauncher(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env.SPOUT_LIFELINE_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  // Processes this one starts have no such descriptor to watch.
  delete env.SPOUT_LIFELINE_FD;
  // A descriptor that is not the launcher's pipe (closed, or reused) would end this process at once.
  if (!isPipe(fd)) return;
  let gone = false;
  const end = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  const pipe = new net.Socket({ fd, readable: true, writable: false });
  pipe.on('end', end).on('error', end).on('close', end);
  pipe.resume();
  // The lifeline alone never keeps this process running.
  pipe.unref();
}

/** Whether `fd` is open on a pipe or socket, as the launcher's end of the lifeline is. */
function isPipe(fd: number): boolean {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isSocket() || stat.isFIFO();
  } catch {
    return false;
  }
}
