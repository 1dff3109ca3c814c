import fs from 'node:fs/promises';
import path from 'node:path';

let seq = 0;

/** Writes a file whole or not at all (a temp file renamed over it), private to the user (0600, its folder 0700). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${seq++}.tmp`;
  try {
    await fs.writeFile(temp, text, { mode: 0o600 });
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}
