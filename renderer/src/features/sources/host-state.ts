import type { HostState } from '../../../../runtime/contract/source-api';

/** What each host state means, as the badge's tooltip says it. */
export const HOST_TITLES: Record<HostState, string> = {
  running: 'Its component host is running',
  starting: 'Its component host is starting for work that came',
  parked: 'Its component host is stopped while idle; the next request, timer or run starts it',
};
