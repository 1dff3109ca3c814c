// Cutting text to a size in bytes, saying so at the cut.

/**
 * `text` if it fits in `maxBytes` of UTF-8, else its start cut to fit, followed by a mark saying
 * how long it was and what is kept of `what` (e.g. `… [cut: 16777216 bytes; log lines are kept up
 * to 65536 bytes]`).
 */
export function cutText(text: string, maxBytes: number, what: string): string {
  // Most text is short: a UTF-16 unit is at most 3 bytes of UTF-8.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return text;
  const mark = ` … [cut: ${bytes} bytes; ${what} are kept up to ${maxBytes} bytes]`;
  const kept = Buffer.from(text.slice(0, maxBytes), 'utf8').subarray(0, Math.max(0, maxBytes - Buffer.byteLength(mark)));
  // A cut inside a character leaves a replacement character: drop it.
  return kept.toString('utf8').replace(/\uFFFD$/, '') + mark;
}
