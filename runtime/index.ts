// The runtime's public entry: what main/ and embedders import.
export { startService, type RunningService, type ServiceOptions } from './service';
export { isLoopbackHost } from './lib/loopback';
export { watchLauncher } from './lib/launcher-lifeline';
export type { KeyWrapper } from './store/secrets';
