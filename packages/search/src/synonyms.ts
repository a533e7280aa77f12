// Words developers use for the same thing, which documentation often says
// another way ("print every statement" for "log all queries"). General
// developer English only: no library's own names.
const GROUPS: readonly (readonly string[])[] = [
  // Abbreviations and their words.
  ['env', 'environment', 'environmental'],
  ['config', 'configure', 'configuration', 'configuring'],
  ['auth', 'authentication', 'authenticate', 'login', 'signin'],
  ['authorization', 'authorisation', 'permission', 'permissions'],
  ['db', 'database', 'databases'],
  ['repo', 'repository'],
  ['dev', 'development'],
  ['prod', 'production'],
  ['deps', 'dependency', 'dependencies'],
  ['args', 'arguments'],
  ['params', 'parameters'],
  ['dir', 'directory', 'folder'],
  ['tmp', 'temp', 'temporary'],
  ['info', 'information'],
  ['docs', 'documentation'],
  ['req', 'request'],
  ['res', 'response'],
  ['msg', 'message'],
  ['err', 'error', 'errors', 'exception', 'exceptions'],
  ['fn', 'func', 'function'],
  ['async', 'asynchronous'],
  ['ws', 'websocket', 'websockets'],
  ['sse', 'server-sent'],
  // The same act in other words.
  ['print', 'log', 'logs', 'logging'],
  ['every', 'all'],
  ['statement', 'statements', 'query', 'queries'],
  ['except', 'exclude', 'excluding', 'excludes', 'excluded'],
  ['remove', 'delete'],
  ['start', 'starts', 'startup', 'boot'],
  ['stop', 'stops', 'shutdown', 'shuts', 'terminate'],
  ['cleanup', 'teardown', 'dispose'],
  ['throw', 'throws', 'raise', 'raises'],
  ['fail', 'fails', 'failed', 'failure'],
  ['override', 'overwrite', 'overriding'],
  ['restore', 'reset', 'revert'],
  ['measure', 'measures', 'timing', 'duration', 'elapsed'],
  ['frontend', 'browser', 'client-side'],
  ['backend', 'server-side'],
  ['unrecognized', 'unrecognised', 'unknown', 'unexpected'],
  ['reject', 'rejects', 'disallow', 'forbid', 'deny', 'prevent'],
  ['required', 'mandatory'],
  ['large', 'big', 'huge'],
  ['delay', 'backoff'],
  ['increasing', 'exponential'],
  ['retry', 'retries', 'retrying'],
  ['credentials', 'password'],
  ['upload', 'uploads', 'uploading', 'multipart'],
  ['parallel', 'concurrent', 'concurrently', 'simultaneously'],
  ['sequential', 'sequentially', 'serial', 'serially'],
  ['cache', 'caching', 'cached', 'memoize'],
  ['paginate', 'pagination', 'paging'],
  ['deploy', 'deployment', 'deploying', 'hosting'],
  ['validate', 'validation', 'validating'],
  ['infer', 'infers', 'inferred', 'inference'],
  ['generate', 'generates', 'generating', 'generation', 'codegen'],
  ['route', 'routes', 'routing', 'endpoint', 'endpoints'],
  ['timeout', 'timeouts'],
  ['debug', 'debugging', 'troubleshoot', 'troubleshooting'],
  ['hide', 'suppress', 'silence'],
  ['speed', 'performance', 'faster'],
  ['limit', 'maximum', 'max'],
  ['compress', 'compression', 'gzip'],
  ['schedule', 'cron', 'periodic'],
  ['upgrade', 'upgrading', 'migrate', 'migration'],
];

const BY_WORD = new Map<string, readonly string[]>();
for (const group of GROUPS)
  for (const word of group) BY_WORD.set(word, [...new Set([...(BY_WORD.get(word) ?? []), ...group])]);

/** Other words for `word`, without it; empty when it has none. */
export function synonymsOf(word: string): readonly string[] {
  return (BY_WORD.get(word) ?? []).filter((w) => w !== word);
}
