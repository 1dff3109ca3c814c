// `dir` props (Pipedream's File Stash directories): a folder the component reads and writes.
import type { PropKind } from '../shared/kind-interface';
import { configuredDir } from './dir-folders';

/** `dir` props: the source's own folder unless the user configures one of theirs. */
export const dirKind: PropKind = {
  name: 'dir',
  types: ['dir'],
  defaultIsConfig: true,
  checkValue(prop, value) {
    if (value === undefined || value === null) return null;
    const folder = configuredDir(value);
    if (folder === null) return { problem: `prop \`${prop.name}\` takes an absolute folder path (or leave it out for the source's own folder), not ${JSON.stringify(value)}` };
    return { value: folder };
  },
};
