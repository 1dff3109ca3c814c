import path from 'node:path';
import { resolveDataDir } from '../../lib/config';
import { describeProblem } from '../../lib/file-problems';
import { parse } from '../support/args';
import { examine, servicePid } from '../support/data-dir-doctor';
import { bold, green, out, printJson, yellow } from '../support/output';

export const HELP = `Usage: spout doctor [--repair] [--data-dir DIR]

Checks a data dir (--data-dir, else SPOUT_DATA_DIR, else ~/.config/spout) the way a start reads
it: every events, logs, runs, deliveries and data store file line by line, metadata.json and every
whole-file state (this.db, dedupe caches, cassettes, sync links) with its previous version, the
keys, and what a crash leaves behind. Prints each problem with its file and line.

Options:
  --repair   mend what it finds, as a start does: damaged lines and files are set aside beside
             their file (*.damaged), a damaged whole file is replaced by its previous version,
             temp files and a stale server.json are removed, hosts left running are stopped.
             The service must be stopped first.

Exit status: 0 when nothing is wrong (or everything was mended), 1 otherwise.
`;

export async function run(argv: string[]): Promise<void> {
  const args = parse(argv, { repair: { type: 'boolean' } }, HELP);
  if (!args) return;
  args.atMost(0);
  const dataDir = resolveDataDir(args.globals.dataDir);
  const repair = args.flag('repair');
  const running = servicePid(path.join(dataDir, 'server.json'));
  if (repair && typeof running === 'number') {
    throw new Error(`a service (pid ${running}) is using ${dataDir}: stop it first (spout doctor --repair changes files it holds open), or run spout doctor without --repair to only check`);
  }
  const report = examine(dataDir, repair);
  if (args.globals.json) {
    printJson({ data_dir: dataDir, files: report.files, problems: report.problems, repairs: report.repairs });
  } else {
    out(`${bold('Checked')} ${dataDir} (${report.files} files)${typeof running === 'number' ? `; a service (pid ${running}) is running, so files may change while they are read` : ''}`);
    for (const p of report.problems) out(`  ${yellow('problem')}  ${describeProblem(p, dataDir)}`);
    for (const p of report.repairs) out(`  ${green('mended')}   ${describeProblem(p, dataDir)}`);
    if (report.problems.length === 0 && report.repairs.length === 0) out(green('Nothing is wrong.'));
    else if (report.problems.length > 0 && !repair) out(`${report.problems.length} problem(s). \`spout doctor --repair\` (with the service stopped) mends them as a start would.`);
  }
  if (report.problems.length > 0) process.exitCode = 1;
}
