// The cassette a file or an API call gives, checked: a recorded file as it is, or entries written
// by hand with only what matters (method, url, status, body), the rest filled in.
import { z } from 'zod';
import { DEFAULT_MATCHING } from './cassette-store';

/** A body as a cassette holds it; hand-written entries may give just the text, or JSON itself (kept as its text). */
const body = {
  body: z.union([z.string(), z.json().transform((v) => JSON.stringify(v))]).default(''),
  body_encoding: z.enum(['utf8', 'base64']).default('utf8'),
  body_size: z.number().int().nonnegative().optional(),
  body_truncated: z.boolean().default(false),
};

/** Fills in a body's size when a hand-written entry leaves it out. */
const sized = <T extends { body: string; body_encoding: 'utf8' | 'base64'; body_size?: number }>(b: T) => ({ ...b, body_size: b.body_size ?? Buffer.byteLength(b.body, b.body_encoding) });

const headers = z.record(z.string(), z.string()).default({});

/** The cassette a PUT takes: a recorded file as is, or entries written by hand (status, headers, body). */
export const cassetteSchema = z.object({
  version: z.literal(1).default(1),
  matching: z
    .object({
      ignore_query: z.array(z.string()).default(DEFAULT_MATCHING.ignore_query),
      body: z.boolean().default(DEFAULT_MATCHING.body),
      order: z.enum(['sequence', 'content']).default(DEFAULT_MATCHING.order),
    })
    .default({ ...DEFAULT_MATCHING }),
  entries: z
    .array(
      z.object({
        request: z.object({ method: z.string().regex(/^[A-Za-z]+$/, 'must be an HTTP method such as GET'), url: z.url({ protocol: /^https?$/, error: 'must be an absolute URL (http or https): components make HTTP calls only' }), headers, ...body }).transform(sized),
        response: z.object({ status: z.number().int().min(100).max(599), headers, ...body }).transform(sized),
        recorded_at: z.number().nullable().default(null),
      }),
    )
    .default([]),
});
