// When the version npm picks for an import cannot install because a dependency of it cannot be
// resolved (oci-identity's latest needs an oci-common that was never published), an older version
// in the import's range may: the newest of those whose dependencies resolve is installed instead,
// and the progress lines say which, and why.
import semver from 'semver';
import { PackageError, type PackageSpecifier } from './package-specifier';

/** Older versions tried, at most: each is one npm run. */
const MAX_TRIES = 5;

/** What a fallback needs: the registry's versions, an install of one exact version, and where progress goes. */
export interface FallbackDeps<T extends { version: string }> {
  versions(): Promise<{ versions: string[]; latest: string | undefined } | null>;
  install(version: string): Promise<T>;
  notify(line: string): void;
}

/** The range an import allows, in words and as semver: its pin, else the major of `latest` (an older major may differ in API). */
function allowed(spec: PackageSpecifier, top: string): { range: string; words: string } {
  if (spec.range !== null) return { range: spec.range, words: `"${spec.range}"` };
  const range = semver.major(top) === 0 ? `~${semver.major(top)}.${semver.minor(top)}.0` : `^${semver.major(top)}.0.0`;
  return { range, words: `${range} (the major of latest)` };
}

/** The versions to try after `top` failed, newest first: in the range, below it, released ones only. */
export function olderVersions(versions: readonly string[], range: string, top: string): string[] {
  return versions
    .filter((v) => semver.valid(v) !== null && semver.prerelease(v) === null && semver.lt(v, top) && semver.satisfies(v, range))
    .sort(semver.rcompare)
    .slice(0, MAX_TRIES);
}

/**
 * Installs the newest version in the import's range older than the one that failed whose
 * dependencies resolve; throws `failed` (with what was tried) when none does.
 */
export async function installOlder<T extends { version: string }>(spec: PackageSpecifier, failed: PackageError, deps: FallbackDeps<T>): Promise<T> {
  const listed = await deps.versions();
  const latest = listed?.latest ?? (listed ? semver.maxSatisfying(listed.versions, '*') : null);
  const top = listed && latest ? (spec.range === null ? latest : semver.maxSatisfying(listed.versions, spec.range)) : null;
  if (!listed || !top) throw failed;
  const { range, words } = allowed(spec, top);
  const candidates = olderVersions(listed.versions, range, top);
  if (candidates.length === 0) throw failed;
  deps.notify(`${spec.name}@${top} cannot be installed (a dependency of it cannot be resolved); trying older versions in ${words}`);
  const tried: string[] = [];
  for (const version of candidates) {
    try {
      const installed = await deps.install(version);
      deps.notify(`chose ${spec.name}@${installed.version} for "${spec.raw}": the newest version in ${words} whose dependencies resolve (${[top, ...tried].join(', ')} cannot be installed)`);
      return installed;
    } catch (err) {
      if (!(err instanceof PackageError) || err.kind !== 'broken-dependency') throw err;
      tried.push(version);
    }
  }
  throw new PackageError(failed.kind, spec.raw, `${failed.message}; the older versions in ${words} tried (${tried.join(', ')}) cannot be installed either: pin a version whose dependencies are published`);
}
