// The runtime's public entry: what main/ and embedders import.
export { startService, type RunningService, type ServiceOptions } from './service';
