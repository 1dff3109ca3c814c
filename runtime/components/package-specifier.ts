// Bare imports as component code writes them (`name`, `@scope/name@^2/sub/path`): their parts,
// and the error every package problem is reported with.
import semver from 'semver';

/** A bare import as written in component code, split into its parts. */
export interface PackageSpecifier {
  /** The import string as written, e.g. `@scope/name@^2/sub/path`. */
  raw: string;
  /** Package name, scope included. */
  name: string;
  /** The pinned semver range (`1.2.3`, `~1.2`, `^1`), or null when unpinned. */
  range: string | null;
  /** `''`, or the path inside the package with a leading slash (`/sub/path`). */
  subpath: string;
}

/** Why a package could not be provided. */
export type PackageErrorKind = 'invalid-specifier' | 'unreachable' | 'not-found' | 'no-matching-version' | 'broken-dependency' | 'npm-missing' | 'install-failed';

/** A bare import that cannot be provided; the message names the package and says what to do. */
export class PackageError extends Error {
  constructor(
    readonly kind: PackageErrorKind,
    readonly specifier: string,
    message: string,
  ) {
    super(message);
    this.name = 'PackageError';
  }
}

// One segment of a package name: npm allows URL-safe characters, not starting with `.` or `_`.
const NAME_PART = /^[A-Za-z0-9~-][A-Za-z0-9._~-]*$/;

/** Splits a bare import (`name/sub`, `@scope/name@^2/sub`, …) into name, pin and subpath; throws a PackageError if malformed. */
export function parseSpecifier(raw: string): PackageSpecifier {
  const bad = (why: string) => new PackageError('invalid-specifier', raw, `import "${raw}" is not a valid package import: ${why}`);
  const segments = raw.split('/');
  const scoped = raw.startsWith('@');
  const scope = scoped ? segments[0]!.slice(1) : null;
  const nameSegment = (scoped ? segments[1] : segments[0]) ?? '';
  const rest = segments.slice(scoped ? 2 : 1);
  // The pin sits on the name segment (Pipedream's form), before any subpath.
  const at = nameSegment.indexOf('@');
  const bare = at === -1 ? nameSegment : nameSegment.slice(0, at);
  const range = at === -1 ? null : nameSegment.slice(at + 1).trim();
  if (scope !== null && !NAME_PART.test(scope)) throw bad(`"@${scope}" is not a valid scope`);
  if (!NAME_PART.test(bare)) throw bad(bare ? `"${bare}" is not a valid package name` : 'the package name is missing');
  if (range !== null && (range === '' || !semver.validRange(range))) {
    throw bad(`"${range}" is not a version or range; pin like name@1.2.3, name@~1.2 or name@^1`);
  }
  if (rest.some((s) => s === '' || s === '.' || s === '..')) throw bad('the path inside the package is malformed');
  return { raw, name: scope === null ? bare : `@${scope}/${bare}`, range, subpath: rest.length ? `/${rest.join('/')}` : '' };
}
