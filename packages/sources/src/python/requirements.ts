import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** A requirement a project declares: its name as written, normalised (PEP 503), and where it was read. */
export interface DeclaredRequirement {
  /** The PEP 503 normalised name (`SQLAlchemy` → `sqlalchemy`, `zope.interface` → `zope-interface`). */
  readonly name: string;
  /** A development requirement: a dependency group, a Poetry dev group, `[dev-packages]`, `requirements-dev.txt`. */
  readonly dev: boolean;
  /** The file that declared it, relative to the project (`pyproject.toml`, `requirements.txt`). */
  readonly file: string;
}

/**
 * The name PyPI and pip compare by (PEP 503): lower case, each run of `-`, `_` and `.` one `-`.
 *
 * @example
 * normaliseName('Jinja2'); // → 'jinja2'
 * normaliseName('zope.interface'); // → 'zope-interface'
 */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

// PEP 508: a name starts and ends with a letter or digit, with letters, digits, `-`, `_` and `.` between.
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;

/**
 * The distribution name of a PEP 508 requirement (`requests[socks]>=2.31; python_version >= "3.8"` → `requests`),
 * normalised; undefined for what names no distribution (a path, a URL without `name @`). Only the name is read: the
 * version comes from what is installed, and a marker is not evaluated (a dependency not installed is reported so).
 *
 * @example
 * requirementName('SQLAlchemy[asyncio]==2.0.36'); // → 'sqlalchemy'
 * requirementName('./vendor/lib'); // → undefined
 */
export function requirementName(requirement: string): string | undefined {
  const text = requirement.trim();
  const match = NAME.exec(text);
  if (!match) return undefined;
  // What may follow a name: extras, a version specifier, a marker, `@ url`, or nothing. A path (`lib/x`) or URL
  // (`https://…`) is no name.
  const rest = text.slice(match[0].length).trimStart();
  if (rest !== '' && !/^[[(<>=!~;@]/.test(rest)) return undefined;
  return normaliseName(match[0]);
}

/** Bounds on the requirement files followed through `-r` (a file that includes itself, or a chain of thousands). */
const MAX_REQUIREMENT_FILES = 32;

/**
 * The requirements of a pip requirements file, with the files it includes (`-r other.txt`, `--requirement`), as pip
 * reads them: comments, line continuations, options (`--index-url`, `-c constraints.txt`, which add no requirement)
 * left out; an editable install (`-e`) counts by its `#egg=` name. Includes are read only inside `root` (the
 * project folder): a requirements file is the project's, but the path it names must not lead docs elsewhere.
 */
export async function readRequirementsFile(
  file: string,
  root: string,
  dev: boolean,
): Promise<{ requirements: DeclaredRequirement[]; problems: string[] }> {
  const requirements: DeclaredRequirement[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = async (current: string, isDev: boolean): Promise<void> => {
    const resolved = path.resolve(current);
    if (seen.has(resolved)) return;
    if (seen.size >= MAX_REQUIREMENT_FILES) {
      problems.push(
        `more than ${MAX_REQUIREMENT_FILES} requirement files included; ${relative(root, resolved)} not read`,
      );
      return;
    }
    seen.add(resolved);
    const relativeName = relative(root, resolved);
    if (relativeName.startsWith('..') || path.isAbsolute(relativeName)) {
      problems.push(`${relativeName}: included from outside the project, not read`);
      return;
    }
    let text: string;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (error) {
      problems.push(`${relativeName}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      return;
    }
    for (const line of logicalLines(text)) {
      const include = /^(?:-r|--requirement)(?:\s+|=)(.+)$/.exec(line);
      if (include?.[1]) {
        const target = include[1].trim();
        await visit(path.resolve(path.dirname(resolved), target), isDev || isDevFile(target));
        continue;
      }
      const editable = /^(?:-e|--editable)(?:\s+|=)(.+)$/.exec(line);
      if (editable?.[1]) {
        const egg = /[#&]egg=([^&\s]+)/.exec(editable[1]);
        const name = egg?.[1] ? requirementName(egg[1]) : undefined;
        if (name) requirements.push({ name, dev: isDev, file: relativeName });
        continue;
      }
      if (line.startsWith('-')) continue;
      const name = requirementName(line);
      if (name) requirements.push({ name, dev: isDev, file: relativeName });
    }
  };
  await visit(file, dev);
  return { requirements, problems };
}

/** A requirements file whose name says it is for development (`requirements-dev.txt`, `dev-requirements.txt`, `requirements/test.txt`). */
export function isDevFile(file: string): boolean {
  return /(?:^|[-_./\\])(?:dev|develop|development|test|tests|testing|lint|docs|ci)(?:[-_./\\]|$)/i.test(
    file.replace(/\.(?:txt|in)$/i, ''),
  );
}

/** The lines pip reads: `\` continuations joined, comments (`#` at the start or after whitespace) and blanks dropped. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (raw.endsWith('\\')) {
      pending += raw.slice(0, -1);
      continue;
    }
    const joined = (pending + raw).replace(/(?:^|\s)#.*$/, '').trim();
    pending = '';
    if (joined !== '') lines.push(joined);
  }
  return lines;
}

function relative(root: string, file: string): string {
  return path.relative(root, file) || path.basename(file);
}
