// The runtime's public entry: what main/ and tests import.
export { startService, type RunningService, type ServiceOptions } from './service';
export { isLoopbackHost, parseRetrySchedule, resolveDataDir } from './config';
