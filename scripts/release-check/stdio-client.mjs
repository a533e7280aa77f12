// A minimal MCP client over stdio: newline-delimited JSON-RPC, no SDK, so the
// check depends on nothing but the installed `docs` command it talks to.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts `command args` as an MCP server over stdio and returns a client with
 * `request(method, params)`, `notify(method, params)` and `end()`, which closes
 * stdin (an MCP host ending the session) and resolves with the exit code.
 */
export function startStdioClient(command, args, { env, cwd, timeoutMs = 30_000 } = {}) {
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map();
  const stray = [];
  let stderr = '';
  let nextId = 1;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      // stdout carries nothing but JSON-RPC; anything else is a failure the test reports.
      stray.push(line);
      return;
    }
    const waiter = pending.get(message.id);
    if (waiter && (message.result !== undefined || message.error !== undefined)) {
      pending.delete(message.id);
      waiter(message);
    }
  });
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    /** Sends a request and resolves with its result; rejects on an error response or a timeout. */
    request(method, params = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`no answer to ${method} within ${timeoutMs} ms; stderr: ${stderr.trim()}`));
        }, timeoutMs);
        pending.set(id, (message) => {
          clearTimeout(timer);
          if (message.error) reject(new Error(`${method} failed: ${JSON.stringify(message.error)}`));
          else resolve(message.result);
        });
        send({ id, method, params });
      });
    },
    notify(method, params = {}) {
      send({ method, params });
    },
    /** Lines on stdout that were not JSON-RPC. */
    stray,
    stderr: () => stderr,
    /** Closes stdin and resolves with the exit code (or kills the server after `timeoutMs`). */
    async end() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
