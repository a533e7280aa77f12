// sections/s by wall clock and by CPU time (process.cpuUsage) on real sections of a package, through openEmbedder
import Database from 'better-sqlite3';
const { sectionPassage } = await import('/work/wt/embed-bg/packages/store/dist/index.js');
const { openEmbedder } = await import('/work/wt/embed-bg/packages/embed/dist/index.js');
const [file, n, ...specs] = process.argv.slice(2);
const db = new Database(file, { readonly: true });
const rows = db.prepare('select c.id, d.title, c.breadcrumb, c.content from chunks c join documents d on d.id = c.document_id order by c.id limit ?').all(Number(n));
const texts = rows.map((r) => sectionPassage({ title: r.title, breadcrumb: JSON.parse(r.breadcrumb), content: r.content }));
for (const s of specs) {
  const [spec, batch, threads] = s.split(',');
  const e = await openEmbedder(spec, { ...(batch ? { batchSize: Number(batch) } : {}), ...(threads ? { threads: Number(threads) } : {}) });
  await e.embed(texts.slice(0, 8), 'document');
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await e.embed(texts, 'document');
  const wall = (performance.now() - t0) / 1000; const c = process.cpuUsage(c0); const cpu = (c.user + c.system) / 1e6;
  console.log(`${e.id} batch ${batch || 8} threads ${threads || 'default'}: ${texts.length} sections, wall ${(texts.length / wall).toFixed(1)} sections/s, cpu ${cpu.toFixed(1)} s = ${(texts.length / cpu).toFixed(1)} sections per CPU-second (x2 cores: ${(2 * texts.length / cpu).toFixed(1)}/s on two idle cores)`);
  await e.close();
}
