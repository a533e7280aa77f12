/** A server serving on a transport until closed. */
export interface RunningServer {
  /** Stops serving: closes connections, the server and the store. Safe to call more than once. */
  close(): Promise<void>;
  /** Settles once the server has closed, by close() or because the client went away. */
  readonly closed: Promise<void>;
}

/** Wraps a close function so it runs once and `closed` settles when it has. */
export function runningServer(stop: () => Promise<void>): RunningServer {
  let closing: Promise<void> | undefined;
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const close = () => {
    // Stopping may call close() again (a transport reporting that it closed): that call gets this promise.
    closing ??= Promise.resolve().then(stop).finally(settle);
    return closing;
  };
  return { close, closed };
}

/**
 * Closes the server on SIGINT or SIGTERM; a second signal, or a close that
 * takes longer than `graceMs`, ends the process at once. Returns a function
 * that removes the handlers.
 */
export function closeOnSignals(
  running: RunningServer,
  options: { signals?: readonly NodeJS.Signals[]; graceMs?: number } = {},
): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let received = false;
  const onSignal = () => {
    if (received) process.exit(130);
    received = true;
    setTimeout(() => process.exit(1), options.graceMs ?? 3000).unref();
    void running.close();
  };
  for (const signal of signals) process.on(signal, onSignal);
  const remove = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  void running.closed.then(remove);
  return remove;
}
