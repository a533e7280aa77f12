// Loaded with `node --import` by a test: appends the URL of every module the
// process loads to the file $DOCS_IMPORT_LOG names, so the test can see what
// a command did not load.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file) appendFileSync(file, resolved.url + '\\n');
  return resolved;
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file: process.env.DOCS_IMPORT_LOG } });
