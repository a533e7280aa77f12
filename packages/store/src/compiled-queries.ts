// Written by compiled-queries.test.ts: the SQL Kysely compiles each builder of the *-queries.ts modules to, typed by
// the builder and the columns SQLite reports (see statement.ts). Do not edit: change the builder, then run
// npx vitest run packages/store/src/compiled-queries.test.ts -u
import type * as catalog from './catalog-queries.js';
import type * as pkg from './package-queries.js';
import type * as work from './vector-job-queries.js';
import { compiled } from './statement.js';

export const packageSchema = [
  compiled<(typeof pkg.packageSchema)[number]>(`create table "package" ("name" text not null, "version" text not null, "description" text not null, "source" text not null, "built_at" text not null, "format_version" integer not null)`),
  compiled<(typeof pkg.packageSchema)[number]>(`create table "documents" ("id" integer primary key, "path" text not null unique, "title" text not null, "content" text not null, "inbound_links" integer default 0 not null)`),
  compiled<(typeof pkg.packageSchema)[number]>(`create table "chunks" ("id" integer primary key, "document_id" integer not null references "documents" ("id"), "ord" integer not null, "breadcrumb" text not null, "level" integer not null, "content" text not null, "tokens" integer not null)`),
  compiled<(typeof pkg.packageSchema)[number]>(`create table "embedder" ("id" text not null, "dimensions" integer not null)`),
  compiled<(typeof pkg.packageSchema)[number]>(`create table "chunk_vectors" ("chunk_id" integer primary key references "chunks" ("id"), "vector" blob not null)`),
  compiled<(typeof pkg.packageSchema)[number]>(`create unique index "chunks_document_ord" on "chunks" ("document_id", "ord")`),
  compiled<(typeof pkg.packageSchema)[number]>(`CREATE VIRTUAL TABLE chunks_fts USING fts5(title, headings, heading, body, content='', tokenize='unicode61 remove_diacritics 2')`),
  compiled<(typeof pkg.packageSchema)[number]>(`PRAGMA user_version = 3`),
];

export const contentRules = [
  { table: 'package', problem: 'name is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "rowid" as "id" from "package" where typeof("name") != 'text' limit 1`) },
  { table: 'package', problem: 'version is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "rowid" as "id" from "package" where typeof("version") != 'text' limit 1`) },
  { table: 'package', problem: 'description is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "rowid" as "id" from "package" where typeof("description") != 'text' limit 1`) },
  { table: 'package', problem: 'source is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "rowid" as "id" from "package" where typeof("source") != 'text' limit 1`) },
  { table: 'package', problem: 'built_at is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "rowid" as "id" from "package" where typeof("built_at") != 'text' limit 1`) },
  { table: 'documents', problem: 'path is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where typeof("path") != 'text' limit 1`) },
  { table: 'documents', problem: 'title is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where typeof("title") != 'text' limit 1`) },
  { table: 'documents', problem: 'content is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where typeof("content") != 'text' limit 1`) },
  { table: 'documents', problem: 'inbound_links is not a whole number ≥ 0', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where typeof("inbound_links") != 'integer' or "inbound_links" < 0 limit 1`) },
  { table: 'documents', problem: 'id is not a whole number from 1 to 2147483647', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where typeof("id") != 'integer' or "id" < 1 or "id" > 2147483647 limit 1`) },
  { table: 'documents', problem: 'path is longer than 1000 characters', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where length("path") > 1000 limit 1`) },
  { table: 'documents', problem: 'title is longer than 1000 characters', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "documents" where length("title") > 1000 limit 1`) },
  { table: 'chunks', problem: 'content is not text', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("content") != 'text' limit 1`) },
  { table: 'chunks', problem: 'id is not a whole number from 1 to 2147483647', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("id") != 'integer' or "id" < 1 or "id" > 2147483647 limit 1`) },
  { table: 'chunks', problem: 'document_id is not a whole number from 1 to 2147483647', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("document_id") != 'integer' or "document_id" < 1 or "document_id" > 2147483647 limit 1`) },
  { table: 'chunks', problem: 'ord is not a whole number from 0 to 2147483647', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("ord") != 'integer' or "ord" < 0 or "ord" > 2147483647 limit 1`) },
  { table: 'chunks', problem: 'level is not a whole number from 0 to 6', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("level") != 'integer' or "level" < 0 or "level" > 6 limit 1`) },
  { table: 'chunks', problem: 'tokens is not a whole number ≥ 0', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where typeof("tokens") != 'integer' or "tokens" < 0 limit 1`) },
  { table: 'chunks', problem: 'breadcrumb is not a JSON array of strings', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "chunks"."id" from "chunks" where (typeof("breadcrumb") != 'text' or not json_valid("breadcrumb") or json_type("breadcrumb") != 'array' or exists (select 1 as "found" from json_each("chunks"."breadcrumb") as "element" where "element"."type" != 'text')) limit 1`) },
  { table: 'chunks', problem: 'breadcrumb is longer than 4000 characters', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "id" as "id" from "chunks" where length("breadcrumb") > 4000 limit 1`) },
  { table: 'chunks', problem: 'a heading of breadcrumb is longer than 1000 characters', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "chunks"."id" from "chunks" where exists (select 1 as "found" from json_each("chunks"."breadcrumb") as "heading" where length("heading"."value") > 1000) limit 1`) },
  { table: 'chunks', problem: 'document_id names no document', query: compiled<(typeof pkg.contentRules)[number]['query'], ['id']>(`select "c"."id" from "chunks" as "c" left join "documents" as "d" on "d"."id" = "c"."document_id" where "d"."id" is null limit 1`) },
];

export const writeQueries = {
  insertPackage: compiled<typeof pkg.writeQueries.insertPackage>(`insert into "package" ("name", "version", "description", "source", "built_at", "format_version") values (@name, @version, @description, @source, @builtAt, @formatVersion)`),
  insertDocument: compiled<typeof pkg.writeQueries.insertDocument>(`insert into "documents" ("id", "path", "title", "content") values (@id, @path, @title, @content)`),
  insertChunk: compiled<typeof pkg.writeQueries.insertChunk>(`insert into "chunks" ("id", "document_id", "ord", "breadcrumb", "level", "content", "tokens") values (@id, @documentId, @ord, @breadcrumb, @level, @content, @tokens)`),
  indexChunk: compiled<typeof pkg.writeQueries.indexChunk>(`insert into "chunks_fts" ("rowid", "title", "headings", "heading", "body") values (@id, @title, @headings, @heading, @body)`),
  setInboundLinks: compiled<typeof pkg.writeQueries.setInboundLinks>(`update "documents" set "inbound_links" = @count where "path" = @path`),
  optimizeIndex: compiled<typeof pkg.writeQueries.optimizeIndex>(`insert into "chunks_fts" ("chunks_fts") values ('optimize')`),
};

export const readQueries = {
  packageRow: compiled<typeof pkg.readQueries.packageRow, ['name', 'version', 'description', 'source', 'built_at', 'format_version']>(`select "name", "version", "description", "source", "built_at", "format_version" from "package"`),
  embedder: compiled<typeof pkg.readQueries.embedder, ['id', 'dimensions']>(`select "id", "dimensions" from "embedder"`),
  vectors: compiled<typeof pkg.readQueries.vectors, ['chunk_id', 'vector']>(`select "chunk_id", "vector" from "chunk_vectors" order by "chunk_id"`),
  rankedRows: compiled<typeof pkg.readQueries.rankedRows, ['rowid', 'score']>(`select "rowid", -bm25("chunks_fts", @title, @headings, @heading, @body) as "score" from "chunks_fts" where "chunks_fts" match @expression order by "score" desc limit @limit`),
  scoredRowsAmong: compiled<typeof pkg.readQueries.scoredRowsAmong, ['rowid', 'score']>(`select "rowid", -bm25("chunks_fts", @title, @headings, @heading, @body) as "score" from "chunks_fts" where "chunks_fts" match @expression and "rowid" in (select "j"."value" from json_each(@ids) as "j")`),
  matchingRowids: compiled<typeof pkg.readQueries.matchingRowids, ['rowids']>(`select json_group_array(rowid) as "rowids" from "chunks_fts" where "chunks_fts" match @expression`),
  rowScores: compiled<typeof pkg.readQueries.rowScores, ['score']>(`select -bm25("chunks_fts", @title, @headings, @heading, @body) as "score" from "chunks_fts" where "chunks_fts" match @expression order by "rowid"`),
  chunkFields: compiled<typeof pkg.readQueries.chunkFields, ['id', 'document_id', 'ord', 'path', 'title', 'breadcrumb', 'level', 'tokens', 'inbound_links']>(`select "c"."id", "c"."document_id", "c"."ord", "d"."path", "d"."title", "c"."breadcrumb", "c"."level", "c"."tokens", "d"."inbound_links" from "chunks" as "c" inner join "documents" as "d" on "d"."id" = "c"."document_id" where "c"."id" in (select "j"."value" from json_each(@ids) as "j")`),
  chunkContents: compiled<typeof pkg.readQueries.chunkContents, ['id', 'content']>(`select "id", "content" from "chunks" where "id" in (select "j"."value" from json_each(@ids) as "j")`),
  document: compiled<typeof pkg.readQueries.document, ['path', 'title', 'content']>(`select "path", "title", "content" from "documents" where "path" = @path`),
  documentList: compiled<typeof pkg.readQueries.documentList, ['path', 'title']>(`select "path", "title" from "documents" order by "path"`),
  stats: compiled<typeof pkg.readQueries.stats, ['documents', 'chunks', 'tokens']>(`select (select count(*) as "count" from "documents") as "documents", count(*) as "chunks", coalesce(sum("tokens"), 0) as "tokens" from "chunks"`),
};

export const checkQueries = {
  schemaObjects: compiled<typeof pkg.checkQueries.schemaObjects, ['type', 'name', 'tbl_name', 'sql']>(`select "type", "name", "tbl_name", "sql" from "sqlite_master"`),
  packageTable: compiled<typeof pkg.checkQueries.packageTable, ['found']>(`select 1 as "found" from "sqlite_master" where "type" = 'table' and "name" = 'package'`),
  packageRows: compiled<typeof pkg.checkQueries.packageRows, ['name', 'version', 'description', 'source', 'built_at', 'format_version']>(`select "name", "version", "description", "source", "built_at", "format_version" from "package"`),
  embedderRows: compiled<typeof pkg.checkQueries.embedderRows, ['id', 'dimensions']>(`select "id", "dimensions" from "embedder"`),
  vectorCount: compiled<typeof pkg.checkQueries.vectorCount, ['count']>(`select count(*) as "count" from "chunk_vectors"`),
  unmatchedVectors: compiled<typeof pkg.checkQueries.unmatchedVectors, ['missing', 'orphans']>(`select (select count(*) as "count" from "chunks" where "id" not in (select "chunk_vectors"."chunk_id" from "chunk_vectors")) as "missing", (select count(*) as "count" from "chunk_vectors" where "chunk_id" not in (select "chunks"."id" from "chunks")) as "orphans"`),
  vectors: compiled<typeof pkg.checkQueries.vectors, ['chunk_id', 'vector']>(`select "chunk_id", "vector" from "chunk_vectors"`),
  unindexedChunk: compiled<typeof pkg.checkQueries.unindexedChunk, ['id']>(`select "c"."id" from "chunks" as "c" left join "chunks_fts_docsize" as "f" on "f"."id" = "c"."id" where "f"."id" is null limit 1`),
  orphanIndexRow: compiled<typeof pkg.checkQueries.orphanIndexRow, ['id']>(`select "f"."id" from "chunks_fts_docsize" as "f" left join "chunks" as "c" on "c"."id" = "f"."id" where "c"."id" is null limit 1`),
  indexIntegrity: compiled<typeof pkg.checkQueries.indexIntegrity>(`insert into "chunks_fts" ("chunks_fts", "rank") values ('integrity-check', 0)`),
};

export const derivedQueries = {
  setTokens: compiled<typeof pkg.derivedQueries.setTokens>(`update "chunks" set "tokens" = @tokens where "id" = @id`),
  boundInboundLinks: compiled<typeof pkg.derivedQueries.boundInboundLinks>(`update "documents" set "inbound_links" = (select count(*) - 1 as "others" from "documents") where "inbound_links" > (select count(*) - 1 as "others" from "documents")`),
  dropIndex: compiled<typeof pkg.derivedQueries.dropIndex>(`DROP TABLE chunks_fts`),
};

export const vectorQueries = {
  chunkCount: compiled<typeof pkg.vectorQueries.chunkCount, ['count']>(`select count(*) as "count" from "chunks"`),
  embedderCount: compiled<typeof pkg.vectorQueries.embedderCount, ['count']>(`select count(*) as "count" from "embedder"`),
  sectionsAfter: compiled<typeof pkg.vectorQueries.sectionsAfter, ['id', 'title', 'breadcrumb', 'level', 'content']>(`select "c"."id", "d"."title", "c"."breadcrumb", "c"."level", "c"."content" from "chunks" as "c" inner join "documents" as "d" on "d"."id" = "c"."document_id" where "c"."id" > @after order by "c"."id" limit @limit`),
  attachWork: compiled<typeof pkg.vectorQueries.attachWork>(`ATTACH DATABASE @file AS work`),
  detachWork: compiled<typeof pkg.vectorQueries.detachWork>(`DETACH DATABASE work`),
  deleteVectors: compiled<typeof pkg.vectorQueries.deleteVectors>(`delete from "chunk_vectors"`),
  deleteEmbedder: compiled<typeof pkg.vectorQueries.deleteEmbedder>(`delete from "embedder"`),
  insertEmbedder: compiled<typeof pkg.vectorQueries.insertEmbedder>(`insert into "embedder" ("id", "dimensions") values (@id, @dimensions)`),
  copyWorkVectors: compiled<typeof pkg.vectorQueries.copyWorkVectors>(`insert into "chunk_vectors" ("chunk_id", "vector") select "chunk_id", "vector" from "work"."vectors" order by "chunk_id"`),
  vacuum: compiled<typeof pkg.vectorQueries.vacuum>(`VACUUM`),
};

export const vocabularyQueries = {
  createVocabulary: compiled<typeof pkg.vocabularyQueries.createVocabulary>(`CREATE VIRTUAL TABLE temp.catalog_vocabulary USING fts5vocab(main, chunks_fts, row)`),
  vocabulary: compiled<typeof pkg.vocabularyQueries.vocabulary, ['terms']>(`select json_group_array(json_array("term", "doc")) as "terms" from "temp"."catalog_vocabulary"`),
  chunkCount: compiled<typeof pkg.vocabularyQueries.chunkCount, ['count']>(`select count(*) as "count" from "chunks"`),
  embedderCount: compiled<typeof pkg.vocabularyQueries.embedderCount, ['count']>(`select count(*) as "count" from "embedder"`),
};

export const catalogSchema = [
  compiled<(typeof catalog.catalogSchema)[number]>(`create table "libraries" ("id" integer primary key, "file" text not null unique, "mtime_ms" real not null, "bytes" integer not null, "chunks" integer not null, "vectors" integer not null)`),
  compiled<(typeof catalog.catalogSchema)[number]>(`create table "terms" ("token" text not null, "library" integer not null, "df" integer not null, constraint "terms_token_library" primary key ("token", "library")) without rowid`),
  compiled<(typeof catalog.catalogSchema)[number]>(`create index "terms_library" on "terms" ("library")`),
  compiled<(typeof catalog.catalogSchema)[number]>(`PRAGMA user_version = 1`),
];

export const catalogQueries = {
  librariesColumns: compiled<typeof catalog.catalogQueries.librariesColumns, ['id', 'file', 'mtime_ms', 'bytes', 'chunks', 'vectors']>(`select "id", "file", "mtime_ms", "bytes", "chunks", "vectors" from "libraries" limit 0`),
  termsColumns: compiled<typeof catalog.catalogQueries.termsColumns, ['token', 'library', 'df']>(`select "token", "library", "df" from "terms" limit 0`),
  tableCount: compiled<typeof catalog.catalogQueries.tableCount, ['count']>(`select count(*) as "count" from "sqlite_master" where "type" = 'table'`),
  libraries: compiled<typeof catalog.catalogQueries.libraries, ['id', 'file', 'mtime_ms', 'bytes', 'chunks', 'vectors']>(`select "id", "file", "mtime_ms", "bytes", "chunks", "vectors" from "libraries"`),
  termRows: compiled<typeof catalog.catalogQueries.termRows, ['token', 'library', 'df']>(`select "t"."token", "t"."library", "t"."df" from json_each(@tokens) as "j" inner join "terms" as "t" on "t"."token" = "j"."value"`),
  findLibrary: compiled<typeof catalog.catalogQueries.findLibrary, ['id']>(`select "id" from "libraries" where "file" = @file`),
  addLibrary: compiled<typeof catalog.catalogQueries.addLibrary>(`insert into "libraries" ("file", "mtime_ms", "bytes", "chunks", "vectors") values (@file, @mtimeMs, @bytes, @chunks, @vectors)`),
  updateLibrary: compiled<typeof catalog.catalogQueries.updateLibrary>(`update "libraries" set "mtime_ms" = @mtimeMs, "bytes" = @bytes, "chunks" = @chunks, "vectors" = @vectors where "id" = @id`),
  dropOldTerms: compiled<typeof catalog.catalogQueries.dropOldTerms>(`delete from "terms" where "library" = @library and "token" not in (select "j"."value" ->> 0 as "token" from json_each(@terms) as "j")`),
  putTerms: compiled<typeof catalog.catalogQueries.putTerms>(`insert into "terms" ("token", "library", "df") select "j"."value" ->> 0 as "token", @library as "library", "j"."value" ->> 1 as "df" from json_each(@terms) as "j" where true on conflict ("token", "library") do update set "df" = "excluded"."df" where "df" != "excluded"."df"`),
  forgetTerms: compiled<typeof catalog.catalogQueries.forgetTerms>(`delete from "terms" where "library" in (select "id" from "libraries" where "file" = @file)`),
  forgetLibrary: compiled<typeof catalog.catalogQueries.forgetLibrary>(`delete from "libraries" where "file" = @file`),
};

export const tokenizerQueries = {
  createTable: compiled<typeof catalog.tokenizerQueries.createTable>(`CREATE VIRTUAL TABLE q USING fts5(t, tokenize='unicode61 remove_diacritics 2')`),
  createVocabulary: compiled<typeof catalog.tokenizerQueries.createVocabulary>(`CREATE VIRTUAL TABLE qv USING fts5vocab(q, instance)`),
  insertText: compiled<typeof catalog.tokenizerQueries.insertText>(`insert into "q" ("rowid", "t") values (@row, @text)`),
  tokens: compiled<typeof catalog.tokenizerQueries.tokens, ['doc', 'term']>(`select "doc", "term" from "qv" order by "doc", "offset"`),
  clear: compiled<typeof catalog.tokenizerQueries.clear>(`delete from "q"`),
};

export const workSchema = [
  compiled<(typeof work.workSchema)[number]>(`create table if not exists "job" ("owner" text not null, "embedder" text not null, "dimensions" integer not null)`),
  compiled<(typeof work.workSchema)[number]>(`create table if not exists "vectors" ("chunk_id" integer primary key, "vector" blob not null)`),
];

export const workQueries = {
  progress: compiled<typeof work.workQueries.progress, ['done', 'after']>(`select count(*) as "done", coalesce(max("chunk_id"), 0) as "after" from "vectors"`),
  job: compiled<typeof work.workQueries.job, ['owner', 'embedder', 'dimensions']>(`select "owner", "embedder", "dimensions" from "job"`),
  deleteJob: compiled<typeof work.workQueries.deleteJob>(`delete from "job"`),
  deleteVectors: compiled<typeof work.workQueries.deleteVectors>(`delete from "vectors"`),
  insertJob: compiled<typeof work.workQueries.insertJob>(`insert into "job" ("owner", "embedder", "dimensions") values (@owner, @embedder, @dimensions)`),
  saveVector: compiled<typeof work.workQueries.saveVector>(`insert or replace into "vectors" ("chunk_id", "vector") values (@id, @vector)`),
};
