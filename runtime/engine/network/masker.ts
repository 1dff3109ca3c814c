// Credentials never reach a recording in clear: the secret fields of a component's `$auth` (by
// name: tokens, keys, secrets, passwords), its secret props' values, wherever they appear (URL,
// headers, bodies), and the whole value of headers that carry credentials by nature. Other `$auth`
// fields (a subdomain, a region, an account id) stay as they are, so a recording shows the real
// host and a hand-written cassette entry with it matches.
import type { SerializedError } from '../../contract/host-protocol';
import type { CallRequest, CallResponse, OutgoingCall } from '../../contract/network-api';

/** What replaces a credential. */
export const MASK = '********';

/** Headers whose value is a credential whatever it holds. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-access-token']);

/** Shorter values are not masked: they would blot out ordinary text (a "1", a "true"). */
const MIN_SECRET_LENGTH = 4;

/** `$auth` field names that hold a credential (`api_key`, `oauth_access_token`, `client_secret`, `password`, `AuthToken`…). */
const SECRET_FIELD = /token|secret|pass|pwd|key|credential|signature|session|cookie|jwt|bearer|private|auth_?code/i;

/** The values of `auth`'s credential fields (all of a nested object under such a name; nested objects elsewhere searched by name too). */
export function secretFields(auth: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const [name, value] of Object.entries(auth)) {
    if (SECRET_FIELD.test(name)) found.push(value);
    else if (value && typeof value === 'object' && !Array.isArray(value)) found.push(...secretFields(value as Record<string, unknown>));
  }
  return found;
}

/** `auth` as recordings show it: its credential fields' values masked, other fields (a subdomain, a region) as they are. */
export function maskedAuth(auth: Record<string, unknown>): Record<string, unknown> {
  const nested = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  return Object.fromEntries(Object.entries(auth).map(([name, value]) => [name, SECRET_FIELD.test(name) ? MASK : nested(value) ? maskedAuth(value) : value]));
}

/** Masks the given secret values (and credential headers) in recorded calls. */
export class Masker {
  private readonly secrets: string[];

  constructor(values: unknown[]) {
    const found = new Set<string>();
    const walk = (v: unknown) => {
      if (typeof v === 'string') {
        if (v.length >= MIN_SECRET_LENGTH && v !== MASK) found.add(v);
      } else if (typeof v === 'number' && String(v).length >= 6) found.add(String(v));
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    values.forEach(walk);
    // Longest first: a secret that contains another is masked whole.
    this.secrets = [...found].sort((a, b) => b.length - a.length);
    for (const s of [...this.secrets]) {
      const encoded = encodeURIComponent(s);
      if (encoded !== s) this.secrets.push(encoded);
    }
  }

  /** A masker of this one's secrets and others' (a workflow step's outputs masked with earlier steps' credentials too). */
  with(others: readonly Masker[]): Masker {
    return others.length === 0 ? this : new Masker([this.secrets, ...others.map((o) => o.secrets)]);
  }

  /** The text with every secret replaced. */
  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  }

  /**
   * A JSON value (a run's return value, exports, `$.send` configs) with every secret masked in its
   * strings and keys, and the whole value of a field named as a credential header (an echoed
   * request config's `Authorization`).
   */
  value<T>(v: T): T {
    return this.walk(v) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (typeof v === 'number') return this.secrets.includes(String(v)) ? MASK : v;
    if (Array.isArray(v)) return v.map((item) => this.walk(item));
    if (v === null || typeof v !== 'object' || !isPlain(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([name, item]) => [this.text(name), typeof item === 'string' && CREDENTIAL_HEADERS.has(name.toLowerCase()) ? MASK : this.walk(item)]));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? MASK : this.text(value);
    return out;
  }

  request(r: CallRequest): CallRequest {
    return { ...r, url: this.text(r.url), headers: this.headers(r.headers), body: r.body_encoding === 'utf8' ? this.text(r.body) : r.body };
  }

  response(r: CallResponse): CallResponse {
    return { ...r, headers: this.headers(r.headers), body: r.body_encoding === 'utf8' ? this.text(r.body) : r.body };
  }

  call(c: OutgoingCall): OutgoingCall {
    return { ...c, request: this.request(c.request), response: c.response && this.response(c.response), error: c.error && this.text(c.error) };
  }

  /** A thrown error (a ComponentError's problems too) with its messages masked, in place: it is about to be answered. */
  thrown<E>(err: E): E {
    if (!(err instanceof Error)) return err;
    err.message = this.text(err.message);
    if (err.stack) err.stack = this.text(err.stack);
    const { problems } = err as { problems?: unknown };
    if (Array.isArray(problems)) for (const p of problems as { message?: unknown }[]) if (typeof p?.message === 'string') p.message = this.text(p.message);
    return err;
  }

  /** A run's result with its error's message and stacks masked: a thrown message may quote a key. */
  result<R extends { error: SerializedError | null }>(r: R): R {
    const e = r.error;
    if (!e) return r;
    const error: SerializedError = { ...e, message: this.text(e.message) };
    if (e.stack !== undefined) error.stack = this.text(e.stack);
    if (e.fullStack !== undefined) error.fullStack = this.text(e.fullStack);
    return { ...r, error };
  }
}

/** A plain object (JSON's kind): other objects (a Uint8Array body) are left as they are. */
function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
