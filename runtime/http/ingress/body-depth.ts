// The depth check of `/e/` bodies, before the run is recorded (recording stringifies the event).

import type { HttpEvent } from '../../contract/endpoint-exchange';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../lib/json-depth';

/**
 * Why an event's parsed body cannot be taken (it nests too deep), or null. Valid JSON nesting N
 * levels takes at least 2N bytes, so a shorter body is not walked: the ingest path stays as it was.
 */
export function bodyDepthProblem(event: HttpEvent): string | null {
  if (event.bodyRaw.length <= 2 * MAX_JSON_DEPTH || typeof event.body !== 'object') return null;
  return nestsDeeperThan(event.body, MAX_JSON_DEPTH) ? tooDeepMessage('the request body') : null;
}
