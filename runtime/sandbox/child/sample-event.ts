// A component's sample event as the host reports it: registry sources export `sampleEmit` (most
// import it from a sibling `test-event.mjs`), which Run now can send a webhook source.
/** Bytes of a component's `sampleEmit` (as JSON) kept; a larger one is left out. */
const MAX_SAMPLE_BYTES = 256 * 1024;

/** The registry's sample event (`sampleEmit`, usually a sibling `test-event.mjs`), as JSON text, when it has one that fits. */
export function sampleOf(sample: unknown): { sampleEvent?: string } {
  if (sample === undefined || typeof sample === 'function') return {};
  try {
    const json = JSON.stringify(sample);
    return json !== undefined && Buffer.byteLength(json) <= MAX_SAMPLE_BYTES ? { sampleEvent: json } : {};
  } catch {
    return {};
  }
}
