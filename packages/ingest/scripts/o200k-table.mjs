// Writes dist/o200k.bin after tsc: gpt-tokenizer's o200k_base ranks as bytes, which src/o200k.ts reads on first use
// in a few milliseconds instead of the ~350 ms of CPU gpt-tokenizer's own tables take in every thread that counts.
// Made from the installed gpt-tokenizer at every build, so the counts follow its version.
import { writeFile } from 'node:fs/promises';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { ranksToTable, serializeRanks } from '../dist/o200k.js';

await writeFile(new URL('../dist/o200k.bin', import.meta.url), serializeRanks(ranksToTable(ranks)));
