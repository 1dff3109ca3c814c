// `npm start` (scripts/start.js) hands the service, or the Electron app, the read end of a pipe on
// the descriptor SPOUT_LIFELINE_FD names. The kernel closes the launcher's end however the launcher
// ends, a `kill -9` included, so the child stops with it instead of keeping its port.
import net from 'node:net';

/** Calls `onGone` once when the launcher that started this process has ended; does nothing when no launcher gave a lifeline. */
export function watchLauncher(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  const fd = Number(env.SPOUT_LIFELINE_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  // Processes this one starts have no such descriptor to watch.
  delete env.SPOUT_LIFELINE_FD;
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
