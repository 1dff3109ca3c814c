// The runtime's public entry: what main/ and embedders import.

export { watchLauncher } from './lib/launcher-lifeline';
export { isLoopbackHost } from './lib/loopback';
export { type RunningService, type ServiceOptions, startService } from './service';
export type { KeyWrapper } from './store/secrets';
