import type { ActionLoadOptions, LoadedAction } from './public-api';

/** Loads an action for a test. */
export function loadTestAction(file: string, options: ActionLoadOptions): LoadedAction {
  throw new Error(`loadAction(${file}, ${Object.keys(options).join()}) is being written`);
}
