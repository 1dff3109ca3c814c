// The shapes of what a component host may send. A host runs untrusted code that can write to its
// channel directly, so every message is checked here before the service acts on it.
import { z } from 'zod';
import type { HostReply, HttpResponsePayload, WireResponse } from '../contract/host-protocol';

const serializedError = z.object({ name: z.string(), message: z.string(), stack: z.string().optional(), fullStack: z.string().optional() });

const emitPayload = z.object({
  json: z.string(),
  meta: z.object({
    id: z.union([z.string(), z.number()]).optional(),
    name: z.string().optional(),
    summary: z.string().optional(),
    ts: z.number().optional(),
  }),
});

const recordedBody = { body: z.string(), body_encoding: z.enum(['utf8', 'base64']), body_size: z.number().int().nonnegative(), body_truncated: z.boolean() };
const callRequest = z.object({ method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), ...recordedBody });
const callResponse = z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), ...recordedBody });
const outgoingCall = z.object({
  request: callRequest,
  response: callResponse.nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
  served_by: z.enum(['live', 'cassette', 'fault', 'discovery']),
  entry: z.number().int().nullable(),
});

const propShape = z.looseObject({ type: z.string() });

const description = z.looseObject({
  props: z.record(z.string(), propShape),
  hooks: z.array(z.string()),
  badHooks: z.array(z.string()),
  methods: z.array(z.string()),
  hasRun: z.boolean(),
  hasAdditionalProps: z.boolean(),
});

const dataStoreCall = z.object({
  op: z.enum(['get', 'set', 'setTtl', 'has', 'keys', 'delete', 'clear', 'entries']),
  key: z.string().optional(),
  value: z.unknown().optional(),
  ttl: z.number().nullable().optional(),
});

const reply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('loaded'), description }),
  z.object({ type: z.literal('load-failed'), error: serializedError }),
  z.object({
    type: z.literal('done'),
    invocationId: z.string(),
    error: serializedError.nullable(),
    emits: z.array(emitPayload),
    value: z.unknown().optional(),
    dbWrites: z.array(z.tuple([z.string(), z.string().nullable()])),
    calls: z.array(outgoingCall),
    clockMs: z.number().optional(),
  }),
  z.object({
    type: z.literal('respond'),
    invocationId: z.string(),
    response: z.object({
      status: z.number().int().min(100).max(599),
      headers: z.record(z.string(), z.string()),
      body: z.union([z.string(), z.object({ base64: z.string() }), z.null()]),
    }),
  }),
  z.object({ type: z.literal('emits'), emits: z.array(emitPayload) }),
  z.object({ type: z.literal('run-emits'), invocationId: z.string(), emits: z.array(emitPayload) }),
  z.object({
    type: z.literal('call'),
    callId: z.number().int(),
    request: z.discriminatedUnion('service', [z.object({ service: z.literal('data_store'), storeId: z.string(), call: dataStoreCall }), z.object({ service: z.literal('network'), request: callRequest })]),
  }),
  z.object({ type: z.literal('log'), invocationId: z.string().nullable(), level: z.enum(['log', 'info', 'warn', 'error', 'debug']), message: z.string() }),
  z.object({ type: z.literal('fatal'), error: serializedError }),
  z.object({ type: z.literal('unrecorded'), invocationId: z.string(), message: z.string().max(4096) }),
]);

/** The message if it has a shape a host may send, else null. */
export function parseHostReply(raw: unknown): HostReply | null {
  const parsed = reply.safeParse(raw);
  return parsed.success ? (parsed.data as HostReply) : null;
}

/** A `respond()` as the HTTP interface takes it: base64 bodies decoded. */
export function responsePayload(response: WireResponse): HttpResponsePayload {
  const { body } = response;
  return { ...response, body: body !== null && typeof body === 'object' ? Buffer.from(body.base64, 'base64') : body };
}
