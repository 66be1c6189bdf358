/**
 * The secret detector: scans one file's content with secretlint's recommended rule preset (run once
 * per file, see ./engine) plus our own rules for the well-known types the preset lacks (./rules), and
 * reports each secret with its catalog type (./catalog) and its position.
 *
 * Positions are 1-based lines and columns; columns count UTF-16 code units from the start of the line
 * (the same as bytes for ASCII text), and the end column is inclusive: a 64-character secret at column 1
 * ends at column 64. Lines are split on "\n" (a "\r" before it belongs to the line). A leading byte
 * order mark is not part of the content: it is stripped before scanning, as secretlint does.
 */
import * as path from 'node:path';
import { classifyMessage, type Finding } from './classify';
import { isGenericSecretType, secretTypeBySlug, SECRET_TYPES, type SecretTypeInfo } from './catalog';
import { lintContent } from './engine';
import { runOwnRules } from './rules';

export { SECRET_TYPES, secretTypeBySlug, type SecretTypeInfo };

export interface DetectedSecret {
  /** Catalog slug, e.g. "aws_access_key_id". */
  secretType: string;
  /** The exact secret text, as it appears in the content. */
  secret: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  /** Inclusive. */
  endColumn: number;
  /** Always false: the detector does not decode base64 content. */
  isBase64Encoded: boolean;
}

export interface DetectOptions {
  /** The file's path in the repository; rules use its name and extension (.npmrc, package.json, .json). */
  path?: string;
}

function engineFile(filePath: string | undefined): { filePath?: string; ext: string } {
  if (!filePath) return { ext: '.txt' };
  const base = path.posix.basename(filePath.replace(/\\/g, '/'));
  const ext = path.posix.extname(base).toLowerCase() || '.txt';
  // Only the base name is given, and none for .p12 files: secretlint's GCP rule reads .p12 files from
  // disk by this path, and nothing on this server's disk belongs to the scanned push.
  return ext === '.p12' ? { ext } : { filePath: base, ext };
}

/** Offsets of the first character of every line. */
function lineStarts(content: string): number[] {
  const starts = [0];
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionOf(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

/** Same secret at the same place once; a provider type wins over a generic one, then the first reported. */
function dedupe(findings: Finding[]): Finding[] {
  const byPlace = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.start}:${f.end}`;
    const seen = byPlace.get(key);
    if (!seen || (isGenericSecretType(seen.slug) && !isGenericSecretType(f.slug))) byPlace.set(key, f);
  }
  return [...byPlace.values()].sort((a, b) => a.start - b.start || a.end - b.end || a.slug.localeCompare(b.slug));
}

/** Finds the secrets in one file's content, sorted by position. */
export async function detectSecrets(content: string, opts: DetectOptions = {}): Promise<DetectedSecret[]> {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (!/\S/.test(text)) return [];
  const messages = await lintContent({ content: text, ...engineFile(opts.path) });
  const findings: Finding[] = [];
  for (const m of messages) {
    const f = classifyMessage(text, m);
    if (f) findings.push(f);
  }
  findings.push(...runOwnRules(text));

  const starts = lineStarts(text);
  return dedupe(findings).map((f) => {
    const start = positionOf(starts, f.start);
    const end = positionOf(starts, f.end - 1);
    return {
      secretType: f.slug,
      secret: text.slice(f.start, f.end),
      startLine: start.line,
      endLine: end.line,
      startColumn: start.column,
      endColumn: end.column,
      isBase64Encoded: false,
    };
  });
}
