/**
 * `application/x-www-form-urlencoded` bodies as PHP reads them into `$_POST` (what WordPress REST handlers
 * see): `a=1&a=2` keeps the last value, `a[]=1&a[]=2` and `a[0]=1&a[1]=2` are lists, `venue[city]=X` an object,
 * nesting allowed (`organizer[0][name]=Y`); a field mixing list and object keys is dropped. Keys are decoded first, then split at their brackets. At most 10 levels deep and
 * 1000 fields, like PHP's max_input_nesting_level / max_input_vars (more are dropped).
 */
const MAX_DEPTH = 10;
const MAX_FIELDS = 1000;

type Node = Record<string, unknown> | unknown[];

function keyPath(key: string): string[] | null {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const head = key.slice(0, open);
  const parts = [head];
  let rest = key.slice(open);
  while (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) break;
    parts.push(rest.slice(1, close));
    rest = rest.slice(close + 1);
    if (parts.length > MAX_DEPTH) return null;
  }
  // PHP: anything after the last well-formed bracket is ignored.
  return parts;
}

function setIn(root: Record<string, unknown>, path: string[], value: string): void {
  let node: Node = root;
  for (let i = 0; i < path.length; i++) {
    const last = i === path.length - 1;
    const seg = path[i];
    const arr = Array.isArray(node);
    if (arr && seg !== '' && !/^(0|[1-9][0-9]{0,8})$/.test(seg)) {
      // `a[]=1&a[x]=2` mixes a list and an object: the odd field is dropped.
      return;
    }
    if (last) {
      if (arr) {
        if (seg === '') (node as unknown[]).push(value);
        else (node as unknown[])[Number(seg)] = value;
      } else (node as Record<string, unknown>)[seg] = value;
      return;
    }
    const nextIsList = path[i + 1] === '' || /^(0|[1-9][0-9]{0,8})$/.test(path[i + 1]);
    const get = (): unknown => (arr ? (seg === '' ? undefined : (node as unknown[])[Number(seg)]) : Object.hasOwn(node, seg) ? (node as Record<string, unknown>)[seg] : undefined);
    let child = get();
    if (child === null || typeof child !== 'object') {
      child = nextIsList ? [] : {};
      if (arr) {
        if (seg === '') (node as unknown[]).push(child);
        else (node as unknown[])[Number(seg)] = child;
      } else (node as Record<string, unknown>)[seg] = child;
    }
    node = child as Node;
  }
}

export function parseFormBody(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  let count = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    if (++count > MAX_FIELDS) break;
    if (key === '' || key === '__proto__') continue;
    const path = keyPath(key);
    if (!path || path.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) continue;
    setIn(out, path, value);
  }
  // Sparse lists from explicit indexes: compact them (PHP arrays have no holes).
  const compact = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(compact);
    if (v && typeof v === 'object') {
      for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = compact((v as Record<string, unknown>)[k]);
    }
    return v;
  };
  return { ...(compact(out) as Record<string, unknown>) };
}
