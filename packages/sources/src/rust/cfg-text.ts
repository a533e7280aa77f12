/** A `cfg` predicate: `unix`, `feature = "rt"`, `all(…)`, `any(…)`, `not(…)`. */
type Cfg =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'value'; readonly name: string; readonly value: string }
  | { readonly kind: 'all' | 'any' | 'not'; readonly items: readonly Cfg[] };

// The names rustdoc gives platforms in its "Available on … only." line.
const PLATFORMS: Readonly<Record<string, string>> = {
  unix: 'Unix',
  windows: 'Windows',
  'target_os=linux': 'Linux',
  'target_os=macos': 'macOS',
  'target_os=ios': 'iOS',
  'target_os=android': 'Android',
  'target_os=freebsd': 'FreeBSD',
  'target_os=netbsd': 'NetBSD',
  'target_os=openbsd': 'OpenBSD',
  'target_os=solaris': 'Solaris',
  'target_os=illumos': 'illumos',
  'target_os=fuchsia': 'Fuchsia',
  'target_os=redox': 'Redox',
  'target_os=haiku': 'Haiku',
  'target_os=wasi': 'WASI',
  'target_family=wasm': 'WebAssembly',
  'target_arch=wasm32': 'WebAssembly',
};

/**
 * The `cfg` conditions on an item as rustdoc's line says them: `feature = "rt"` and `all(unix, feature = "net")` give
 * "Available on Unix and crate feature `net` only."; a condition it cannot read is shown as written, in code.
 *
 * @example
 * availabilityText(['all(unix, feature = "net")']); // → 'Available on Unix and crate feature `net` only.'
 */
export function availabilityText(conditions: readonly string[]): string {
  if (conditions.length === 0) return '';
  const parts = conditions.map((text) => {
    const parsed = parseCfg(text);
    return parsed === undefined ? `\`cfg(${text})\`` : render(parsed, true);
  });
  return `Available on ${[...new Set(parts)].join(' and ')} only.`;
}

function render(cfg: Cfg, top: boolean): string {
  switch (cfg.kind) {
    case 'name':
      return PLATFORMS[cfg.name] ?? `\`${cfg.name}\``;
    case 'value':
      if (cfg.name === 'feature') return `crate feature \`${cfg.value}\``;
      return PLATFORMS[`${cfg.name}=${cfg.value}`] ?? `\`${cfg.name} = "${cfg.value}"\``;
    case 'not': {
      const [inner] = cfg.items;
      if (inner === undefined) return '`not()`';
      const platform =
        inner.kind === 'name'
          ? PLATFORMS[inner.name]
          : inner.kind === 'value'
            ? PLATFORMS[`${inner.name}=${inner.value}`]
            : undefined;
      return platform ? `non-${platform}` : `not ${render(inner, false)}`;
    }
    default: {
      if (cfg.items.length === 1 && cfg.items[0]) return render(cfg.items[0], top);
      const joiner = cfg.kind === 'all' ? ' and ' : ' or ';
      const features = cfg.items.every((item) => item.kind === 'value' && item.name === 'feature');
      if (features) {
        const names = cfg.items.map((item) => (item.kind === 'value' ? `\`${item.value}\`` : ''));
        return `crate features ${names.join(joiner)}`;
      }
      const text = cfg.items.map((item) => render(item, false)).join(joiner);
      return top ? text : `(${text})`;
    }
  }
}

/** Parses a cfg predicate (`all(unix, feature = "net")`); undefined for anything else. */
function parseCfg(text: string): Cfg | undefined {
  const tokens = text.match(/"(?:[^"\\]|\\.)*"|[A-Za-z_][\w]*|[(),=]|\S/g) ?? [];
  let at = 0;
  const predicate = (): Cfg | undefined => {
    const name = tokens[at];
    if (name === undefined || !/^[A-Za-z_]/.test(name)) return undefined;
    at += 1;
    if (tokens[at] === '=') {
      const value = tokens[at + 1];
      if (value === undefined || !value.startsWith('"')) return undefined;
      at += 2;
      return { kind: 'value', name, value: value.slice(1, -1) };
    }
    if (tokens[at] !== '(') return { kind: 'name', name };
    if (name !== 'all' && name !== 'any' && name !== 'not') return undefined;
    at += 1;
    const items: Cfg[] = [];
    while (tokens[at] !== ')') {
      const item = predicate();
      if (item === undefined) return undefined;
      items.push(item);
      if (tokens[at] === ',') at += 1;
      else if (tokens[at] !== ')') return undefined;
    }
    at += 1;
    return { kind: name, items };
  };
  const parsed = predicate();
  return parsed !== undefined && at === tokens.length ? parsed : undefined;
}
