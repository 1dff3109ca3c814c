// The Network tab's data: a source's cassette.
import type { Cassette, NetworkMode } from '../../../../runtime/contract/network-api';
import { api } from '../../api/v1';

export const readCassette = (sourceId: string) => api.getCassette(sourceId);
/** Replaces the cassette; answers it as saved. */
export const saveCassette = (sourceId: string, cassette: Cassette) => api.putCassette(sourceId, cassette);

/** The network modes as the UI names them, with what each does to a source's calls (MCP settings use the labels). */
export const NETWORK_MODES: Array<{ mode: NetworkMode; label: string; help: string }> = [
  { mode: 'live', label: 'Live', help: 'Calls go out; each run shows them in its record.' },
  { mode: 'record', label: 'Record', help: 'Calls go out and are added to the cassette below.' },
  { mode: 'replay', label: 'Replay', help: 'Calls are answered from the cassette; a call it has no recording of fails, naming it.' },
  { mode: 'replay-or-live', label: 'Replay, else live', help: 'Calls the cassette has are answered from it; the others go out.' },
  { mode: 'discover', label: 'Discover', help: 'Calls the cassette lacks are answered 200 {} and listed in the run, with "Make a cassette" to fill them in.' },
];
