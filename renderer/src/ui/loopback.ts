/** Whether a host name is this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`). */
export const isLoopbackHost = (hostname: string) => /^(localhost|127(\.\d+){3}|\[::1\])$/.test(hostname);

/** Whether a URL names this machine: on another machine the same URL names that one. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
