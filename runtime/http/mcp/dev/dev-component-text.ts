// Where a dev tool's component comes from: a file under the session's roots, or code given inline;
// and where in that file an error happened (the host maps stacks to the component's own lines).
import path from 'node:path';
import { z } from 'zod';
import { componentCode, componentFilename } from '../../api/component-input';
import { HttpError } from '../../edge/error-statuses';
import type { DevSession } from './dev-tool-kit';

/** The input fields naming a component: `file` under the roots, or `code` (with an optional `filename`). */
export const componentInput = {
  file: z.string().min(1).optional().describe('Path of the component file, absolute or relative to the first allowed folder'),
  code: componentCode.optional().describe('The module text, when there is no file'),
  filename: componentFilename.describe('File name for inline code (picks .ts or .mjs and names it in stacks)'),
};

/** A component's text, its file name, and the file it was read from (null for inline code). */
export interface ComponentText {
  code: string;
  filename: string;
  file: string | null;
}

/** The text of the component a call names: exactly one of `file` and `code`. */
export function componentText(session: DevSession, input: { file?: string; code?: string; filename?: string }, fallback: string): ComponentText {
  if ((input.file === undefined) === (input.code === undefined)) throw new HttpError(400, 'give exactly one of file (a path under the allowed folders) or code (the module text)');
  if (input.code !== undefined) return { code: input.code, filename: input.filename ?? fallback, file: null };
  const file = session.roots.check(input.file as string);
  return { code: session.roots.read(file), filename: path.basename(file), file };
}

/** Where in a component's file something happened. */
export interface Location {
  /** `file:line[:column]`, the file's full path when it came from one. */
  location: string;
  line: number;
  column?: number;
}

/** The first place in the component's file a stack (or message) names. */
export function locationOf(stack: string | null | undefined, filename: string, file: string | null): Location | null {
  if (!stack) return null;
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:^|[\\s(/])${escaped}:(\\d+)(?::(\\d+))?`, 'm').exec(stack);
  if (!match) return null;
  const at: Location = { location: `${file ?? filename}:${match[1]}${match[2] ? `:${match[2]}` : ''}`, line: Number(match[1]) };
  if (match[2]) at.column = Number(match[2]);
  return at;
}

/**
 * Where a lint finding is: the bundler's `file:line:col` in its path or message, else the line
 * declaring the prop it names (`props.<name>…`), found after the first `props` in the text.
 */
export function findingLocation(finding: { path: string; message: string }, text: ComponentText): Location | null {
  const stated = locationOf(`${finding.path}\n${finding.message}`, text.filename, text.file);
  if (stated) return stated;
  const prop = /^props\.([A-Za-z_$][\w$]*)/.exec(finding.path)?.[1];
  if (!prop) return null;
  const lines = text.code.split('\n');
  const start = lines.findIndex((l) => /\bprops\s*:/.test(l));
  const declares = new RegExp(`(^|[\\s{,"'])${prop.replace(/\$/g, '\\$')}["']?\\s*:`);
  for (let i = Math.max(start, 0); i < lines.length; i++) {
    const match = declares.exec(lines[i] as string);
    if (match) {
      const column = match.index + match[1]!.length + 1;
      return { location: `${text.file ?? text.filename}:${i + 1}:${column}`, line: i + 1, column };
    }
  }
  return null;
}
