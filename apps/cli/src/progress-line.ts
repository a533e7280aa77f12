import type { BuildProgress } from '@docs/ingest';
import type { SourceProgress } from '@docs/sources';

/** A progress line on stderr, redrawn at most every 100 ms: what a source is fetching, then how far the build is. */
export function progressLine(): {
  source: (p: SourceProgress) => void;
  build: (p: BuildProgress, label?: string) => void;
  text: (line: string) => void;
  clear: () => void;
} {
  let last = 0;
  let shown = false;
  const draw = (text: string, force: boolean) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    shown = true;
    const width = Math.max(20, (process.stderr.columns || 100) - 1);
    process.stderr.write(`\r\x1b[K  ${text.slice(0, width - 2)}`);
  };
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  return {
    source(p) {
      const verb = p.phase === 'clone' ? 'cloning' : p.phase === 'fetch' ? 'fetching' : 'gathering';
      const count = p.total === undefined ? `${p.documents} documents` : `${p.documents}/${p.total} documents`;
      draw(`${verb} ${p.current ?? ''}: ${count}, ${megabytes(p.bytes)}, ${seconds(p.elapsedMs)}`, false);
    },
    build(p, label) {
      draw(
        `building${label ? ` ${label}` : ''}: ${p.files}/${p.totalFiles} files, ${p.sections} sections, ${megabytes(p.bytes)}, ${seconds(p.elapsedMs)}`,
        p.files === p.totalFiles,
      );
    },
    text(line) {
      draw(line, true);
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
