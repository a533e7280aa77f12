import { type Kysely, sql } from 'kysely';
import type { WorkVectorTable } from './schema.js';

// A vector job's work file (vector-job.ts) as Kysely sees it, and every statement over it, compiled once, ahead of
// time, into compiled-queries.ts (see statement.ts).

/** The one job a work file holds work for: the package as it was, and the embedder. */
export interface JobTable {
  /** What the work was done for (package, build time, size, sections) as JSON: another package starts again. */
  readonly owner: string;
  readonly embedder: string;
  readonly dimensions: number;
}

/** The tables of a vector job's work file. */
export interface WorkDatabase {
  readonly job: JobTable;
  readonly vectors: WorkVectorTable;
}

type Db = Kysely<WorkDatabase>;

/** The statements that make a work file, or leave one made before as it is. */
export const workSchema = [
  (db: Db) =>
    db.schema
      .createTable('job')
      .ifNotExists()
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('embedder', 'text', (c) => c.notNull())
      .addColumn('dimensions', 'integer', (c) => c.notNull()),
  (db: Db) =>
    db.schema
      .createTable('vectors')
      .ifNotExists()
      .addColumn('chunk_id', 'integer', (c) => c.primaryKey())
      .addColumn('vector', 'blob', (c) => c.notNull()),
];

/** The statements over a work file. */
export const workQueries = {
  /** How many vectors are saved, and the last section that has one (0 for none). */
  progress: (db: Db) =>
    db
      .selectFrom('vectors')
      .select((eb) => [
        eb.fn.countAll<number>().as('done'),
        eb.fn.coalesce(eb.fn.max('chunk_id'), sql.lit(0)).as('after'),
      ]),
  job: (db: Db) => db.selectFrom('job').select(['owner', 'embedder', 'dimensions']),
  deleteJob: (db: Db) => db.deleteFrom('job'),
  deleteVectors: (db: Db) => db.deleteFrom('vectors'),
  insertJob: (db: Db, p: { owner: string; embedder: string; dimensions: number }) =>
    db.insertInto('job').values({ owner: p.owner, embedder: p.embedder, dimensions: p.dimensions }),
  saveVector: (db: Db, p: { id: number; vector: Uint8Array }) =>
    db.insertInto('vectors').orReplace().values({ chunk_id: p.id, vector: p.vector }),
};
