// The sign-in link of a remote instance: its UI link carries a one-time token, never the API key,
// so the window asks the instance for one with the key (POST /v1/ui/sign-in-links) before loading it.

/** A new sign-in link from the instance at `baseUrl`, or the reason there is none. */
export async function remoteSignInLink(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch): Promise<{ url: string } | { problem: string }> {
  let res: Response;
  try {
    res = await fetchImpl(`${baseUrl}/v1/ui/sign-in-links`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
  } catch (err) {
    return { problem: `it could not be reached (${(err as Error).message})` };
  }
  if (res.status === 401) return { problem: 'the API key was refused (401)' };
  if (!res.ok) return { problem: `it answered ${res.status} to a sign-in link request (a Spout older than this app?)` };
  const body = (await res.json().catch(() => null)) as { data?: { token?: unknown } } | null;
  const token = body?.data?.token;
  // The link is built on the profile's URL: behind a proxy the instance may not know its own.
  return typeof token === 'string' ? { url: `${baseUrl}/?token=${encodeURIComponent(token)}` } : { problem: 'its answer to a sign-in link request had no token' };
}
