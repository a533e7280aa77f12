// A worker thread of `docs serve --http` (see worker-pool.ts): answers MCP and API requests over a store of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { openModels } from '@docs/search';
import { localHandler } from './request-handler.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-pool.js';

const port = parentPort;
if (!port) throw new Error('request-worker.js runs only as a worker thread of @docs/server');
const { models: specs, ...options } = workerData as WorkerSetup;
const send = (reply: WorkerReply) => port.postMessage(reply);
const encoder = new TextEncoder();
const models = specs ? openModels(specs) : undefined;
const handler = await localHandler({
  ...options,
  ...(models ? { models } : {}),
  log: (line) => send({ log: line }),
});

port.on('message', (request: WorkerRequest) => {
  if (request.kind === 'close') {
    void handler
      .close()
      .then(() => models?.close())
      .finally(() => port.close());
    return;
  }
  const answering =
    request.kind === 'mcp' ? handler.mcp(request.message, request.headers) : handler.api(request.method, request.url);
  answering.then(
    (answer) => {
      // The body crosses as bytes moved, not copied: encoded once here, written as they are by the main thread.
      const body = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body;
      const reply: WorkerReply = { id: request.id, answer: { ...answer, ...(body ? { body } : {}) } };
      port.postMessage(reply, body ? [body.buffer as ArrayBuffer] : []);
    },
    (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
send({ ready: true });
