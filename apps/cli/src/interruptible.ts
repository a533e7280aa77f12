import { InterruptedError } from './errors.js';

/**
 * Runs `work` with a signal that SIGINT/SIGTERM abort; an aborted run becomes
 * InterruptedError (exit 130) with `message`. The work removes what it made on the way out.
 */
export async function interruptible<T>(message: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await work(abort.signal);
  } catch (error) {
    if (abort.signal.aborted) throw new InterruptedError(message, { cause: error });
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
