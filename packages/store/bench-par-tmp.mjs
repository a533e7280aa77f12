import Database from 'better-sqlite3';
const { sectionPassage } = await import('/work/wt/embed-bg/packages/store/dist/index.js');
const { openEmbedder } = await import('/work/wt/embed-bg/packages/embed/dist/index.js');
const [file, n, spec, k] = process.argv.slice(2);
const db = new Database(file, { readonly: true });
const rows = db.prepare('select c.id, d.title, c.breadcrumb, c.content from chunks c join documents d on d.id = c.document_id order by c.id limit ?').all(Number(n));
const texts = rows.map((r) => sectionPassage({ title: r.title, breadcrumb: JSON.parse(r.breadcrumb), content: r.content }));
const es = [];
for (let i = 0; i < Number(k); i++) es.push(await openEmbedder(spec, { threads: 1 }));
for (const e of es) await e.embed(texts.slice(0, 8), 'document');
const c0 = process.cpuUsage(); const t0 = performance.now();
// k sessions, each takes batches of 8 in turn from a shared queue
let next = 0;
await Promise.all(es.map(async (e) => { for (;;) { const i = next; next += 8; if (i >= texts.length) return; await e.embed(texts.slice(i, i + 8), 'document'); } }));
const wall = (performance.now() - t0) / 1000; const c = process.cpuUsage(c0); const cpu = (c.user + c.system) / 1e6;
console.log(`${k} sessions x 1 thread: wall ${(texts.length / wall).toFixed(1)}/s, cpu ${cpu.toFixed(1)} s (${(texts.length / cpu).toFixed(1)} per CPU-s), cpu/wall ${(cpu / wall).toFixed(2)} cores busy`);
