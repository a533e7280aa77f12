// The side-by-side table: one row per measure, one column per engine (docs first), the best value of a row in bold,
// and how docs compares with the best of the others.

/** A measured value: `value` orders the row (lower is better), `text` is what the cell shows. */
export interface PeerValue {
  readonly value: number;
  readonly text: string;
}

/** A cell with nothing to compare: the engine has no such tool, or the step failed. */
export interface PeerNote {
  readonly note: string;
}

/** One measure across the engines. */
export interface PeerRow {
  readonly label: string;
  /** How docs's ratio to the best reads ("3.8× slower", "4.9× more"); `none` for a row without one. */
  readonly worse: 'slower' | 'more' | 'none';
  /** One cell an engine, in the order of the table's engines (docs first). */
  readonly cells: readonly (PeerValue | PeerNote)[];
  /** A floor the row is compared with when docs is ahead (the bare `node -e 0` for a one-shot process). */
  readonly floor?: { readonly value: number; readonly name: string };
}

const isValue = (cell: PeerValue | PeerNote | undefined): cell is PeerValue =>
  cell !== undefined && 'value' in cell && Number.isFinite(cell.value);

/**
 * How docs (the first cell) compares with the best of the other engines in a row: "ahead" when it is lower than
 * every one of them (with its multiple of the floor, when the row has one), "even" when tied with the best,
 * otherwise docs's value over the best one ("3.80× slower"). "—" when there is nothing to compare.
 *
 * @example docsVersusBest({ label: 'x', worse: 'slower', cells: [{ value: 2, text: '2' }, { value: 1, text: '1' }] })
 * // '2.00× slower'
 */
export function docsVersusBest(row: PeerRow): string {
  const [docs, ...others] = row.cells;
  const peers = others.filter(isValue);
  if (row.worse === 'none' || !isValue(docs) || peers.length === 0) return '—';
  const best = Math.min(...peers.map((p) => p.value));
  if (docs.value < best) {
    if (!row.floor || !(row.floor.value > 0)) return 'ahead';
    return `ahead (${(docs.value / row.floor.value).toFixed(2)}× ${row.floor.name})`;
  }
  if (docs.value === best) return 'even';
  // A best of 0 (a CPU time below the clock tick) has no ratio.
  if (!(best > 0)) return row.worse;
  return `${(docs.value / best).toFixed(2)}× ${row.worse}`;
}

/**
 * The table as markdown: a header of the engines' titles and "docs vs best", one line a row, the lowest value of
 * each row in bold (every one that ties), notes as they are.
 */
export function formatPeerTable(titles: readonly string[], rows: readonly PeerRow[]): string {
  const lines = [`| measure | ${titles.join(' | ')} | docs vs best |`, `|---|${titles.map(() => '---|').join('')}---|`];
  for (const row of rows) {
    const values = row.cells.filter(isValue);
    const best = values.length > 1 ? Math.min(...values.map((v) => v.value)) : Number.NaN;
    const cells = titles.map((_, i) => {
      const cell = row.cells[i];
      if (cell === undefined) return '';
      if (!isValue(cell)) return 'note' in cell ? cell.note : '';
      return row.worse !== 'none' && cell.value === best ? `**${cell.text}**` : cell.text;
    });
    lines.push(`| ${row.label} | ${cells.join(' | ')} | ${docsVersusBest(row)} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Milliseconds as the table shows them: seconds from 10 s, whole ms from 100 ms, else 3 significant digits. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${Number(ms.toPrecision(3))} ms`;
}

/** Kilobytes (as /proc and `time` count them) as whole megabytes, thousands separated. */
export function formatKb(kb: number): string {
  return `${Math.round(kb / 1024).toLocaleString('en-US')} MB`;
}
