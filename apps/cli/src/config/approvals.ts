import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '@docs/store';
// A namespace import lets the bundle (scripts/bundle.mjs) keep only the parts of zod used here: 170 KB, not 670 KB.
import * as z from 'zod';
import { UsageError } from '../errors.js';

const approvalsSchema = z.object({
  /** Project config path → sha256 of the content the user approved. */
  approved: z.record(z.string(), z.string()),
});

/**
 * The project configs the user approved, kept in the user config folder
 * (`approvals.json`), keyed by the config file's path and its content's hash:
 * a changed file (after a `git pull`) is asked about again.
 */
export interface Approvals {
  get(file: string): string | undefined;
  /** Records an approval on disk and returns the updated set. */
  approve(file: string, hash: string): Promise<Approvals>;
}

export function approvalsFile(userDir: string): string {
  return path.join(userDir, 'approvals.json');
}

export function readApprovals(userDir: string): Approvals {
  const file = approvalsFile(userDir);
  let approved: Record<string, string> = {};
  try {
    const parsed = approvalsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      throw new UsageError(`${file} is damaged: remove it and approve your project configs again`, { code: 'config' });
    approved = parsed.data.approved;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, { code: 'config' });
  }
  return approvals(userDir, approved);
}

function approvals(userDir: string, approved: Readonly<Record<string, string>>): Approvals {
  return {
    get: (file) => approved[file],
    async approve(file, hash) {
      const next = { ...approved, [file]: hash };
      await writeFileAtomic(approvalsFile(userDir), `${JSON.stringify({ approved: next }, null, 2)}\n`);
      return approvals(userDir, next);
    },
  };
}
