// A worker thread of `docs serve --http` (see worker-pool.ts): answers MCP and API requests over a store of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { openModels } from '@docs/search';
import { localHandler } from './request-handler.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-pool.js';

const port = parentPort;
if (!port) throw new Error('request-worker.js runs only as a worker thread of @docs/server');
const { models: specs, ...options } = workerData as WorkerSetup;
const send = (reply: WorkerReply) => port.postMessage(reply);
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
    // The body crosses as a string: copying a string is a memcpy, while encoding it to bytes here to move them cost
    // a new ArrayBuffer per answer (about 50 us for 20 KB, against 5 to 10 us); the main thread writes it as UTF-8.
    (answer) => send({ id: request.id, answer }),
    (error: unknown) => send({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
send({ ready: true });
