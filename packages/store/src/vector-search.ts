import { StoreError } from './errors.js';

// Vector search over one package: brute force over every vector, read into memory once per reader (see
// docs/benchmarks.md for how far that holds).

/** The model that made a package's vectors, as it named itself. */
export interface PackageEmbedder {
  /** `<provider>:<model>:<dimensions>`. */
  readonly id: string;
  readonly dimensions: number;
}

/** A chunk and its cosine similarity to a query vector, in [-1, 1]. */
export interface VectorHit {
  readonly id: number;
  readonly similarity: number;
}

/** A package's vectors, read once: row i of `data` is the vector of chunk `ids[i]`, scaled to unit length. */
export interface VectorMatrix {
  readonly dimensions: number;
  readonly ids: Int32Array;
  readonly data: Float32Array;
  readonly row: ReadonlyMap<number, number>;
}

/**
 * Throws unless `query` can be compared with the package's vectors.
 *
 * @throws {RangeError} when the package has no vectors or `query` has another dimension.
 */
export function assertComparable(
  embedder: PackageEmbedder | undefined,
  query: Float32Array,
  file: string,
): asserts embedder is PackageEmbedder {
  if (!embedder) throw new RangeError(`${file} has no vectors`);
  if (query.length !== embedder.dimensions) {
    throw new RangeError(
      `a query vector of ${query.length} dimensions cannot be compared with vectors of ${embedder.dimensions} (${embedder.id})`,
    );
  }
}

/** The matrix of a package's vectors (`rows`: chunk id and blob, by chunk id), each scaled to unit length. */
export function vectorMatrix(
  rows: readonly (readonly [number, Uint8Array])[],
  dimensions: number,
  file: string,
): VectorMatrix {
  const data = new Float32Array(rows.length * dimensions);
  const bytes = new Uint8Array(data.buffer);
  const ids = new Int32Array(rows.length);
  const row = new Map<number, number>();
  for (const [r, [id, blob]] of rows.entries()) {
    if (blob.byteLength !== dimensions * 4) {
      throw new StoreError('invalid-package', `${file}: the vector of chunk ${id} is not ${dimensions} floats`);
    }
    // Copied byte-wise: a blob's buffer need not be aligned for a Float32Array view.
    bytes.set(blob, r * dimensions * 4);
    ids[r] = id;
    row.set(id, r);
    normalizeRow(data, r * dimensions, dimensions);
  }
  return { dimensions, ids, data, row };
}

/** The `limit` chunks whose vectors are closest to `query` (cosine similarity), best first, ties by chunk id. */
export function nearestVectors(matrix: VectorMatrix, query: Float32Array, limit: number): VectorHit[] {
  const wanted = Math.min(Math.max(0, Math.floor(limit)), matrix.ids.length);
  if (wanted === 0) return [];
  const q = unit(query);
  const { dimensions, data, ids } = matrix;
  // The best `wanted` so far, worst first: a new one only has to beat the first.
  const best: VectorHit[] = [];
  for (let r = 0; r < ids.length; r++) {
    let dot = 0;
    const base = r * dimensions;
    for (let d = 0; d < dimensions; d++) dot += (q[d] as number) * (data[base + d] as number);
    if (best.length === wanted && !beats(dot, ids[r] as number, best[0] as VectorHit)) continue;
    const hit = { id: ids[r] as number, similarity: dot };
    if (best.length === wanted) best.shift();
    let at = 0;
    while (at < best.length && beats(hit.similarity, hit.id, best[at] as VectorHit)) at++;
    best.splice(at, 0, hit);
  }
  return best.reverse();
}

/** The cosine similarity of `query` to each chunk id's vector; ids without a vector are absent. */
export function vectorSimilarities(
  matrix: VectorMatrix,
  query: Float32Array,
  ids: readonly number[],
): Map<number, number> {
  const q = unit(query);
  const result = new Map<number, number>();
  for (const id of ids) {
    const r = matrix.row.get(id);
    if (r === undefined) continue;
    let dot = 0;
    const base = r * matrix.dimensions;
    for (let d = 0; d < matrix.dimensions; d++) dot += (q[d] as number) * (matrix.data[base + d] as number);
    result.set(id, dot);
  }
  return result;
}

/** Whether a similarity and id rank above `other`: higher similarity, then the lower id. */
function beats(similarity: number, id: number, other: VectorHit): boolean {
  return similarity > other.similarity || (similarity === other.similarity && id < other.id);
}

/** `vector` scaled to unit length (a zero vector stays zero, similar to nothing). */
function unit(vector: Float32Array): Float32Array {
  const copy = Float32Array.from(vector);
  normalizeRow(copy, 0, copy.length);
  return copy;
}

function normalizeRow(data: Float32Array, start: number, length: number): void {
  let norm = 0;
  for (let d = start; d < start + length; d++) norm += (data[d] as number) ** 2;
  if (norm === 0 || !Number.isFinite(norm)) return;
  const scale = 1 / Math.sqrt(norm);
  for (let d = start; d < start + length; d++) data[d] = (data[d] as number) * scale;
}
