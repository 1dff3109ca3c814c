// Greps a data dir: where a secret a test planted was written in clear.
import fs from 'node:fs';
import path from 'node:path';

/** Every file under dir whose bytes hold text, by its path relative to dir. */
export function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(text)) found.push(path.relative(dir, file));
  }
  return found;
}
