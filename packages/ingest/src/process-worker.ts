// A worker thread of the build's pool: processes the files it is sent.
import { parentPort } from 'node:worker_threads';
import { type FileOptions, processFile } from './process-file.js';

/** A file to process, and the id its answer carries back. */
export interface FileTask {
  readonly id: number;
  readonly absolutePath: string;
  readonly relativePath: string;
  readonly options: FileOptions;
}

parentPort?.on('message', (task: FileTask) => {
  processFile(task.absolutePath, task.relativePath, task.options).then(
    (result) => parentPort?.postMessage({ id: task.id, result }),
    (error: unknown) =>
      parentPort?.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
