/**
 * Where alerts come from: pushes and other content scanned with the detector (secretlint preset + our
 * rules), push protection (placeholders, bypasses) and rescans (scan history).
 *
 * IMPLEMENTATION IN PROGRESS (this session): signatures are final, bodies are being written.
 */
import type { RepositoryEntity, ScanKind, SecretScanningScanEntity } from '../../../entities';
import type { RequestContext } from '../../context';

export interface PushFileInput {
  path: string;
  content: string;
}
export interface PushCommitInput {
  sha: string;
  files: PushFileInput[];
}
export interface SubmitPushInput {
  /** owner/name */
  repository: string;
  ref: string;
  commits: PushCommitInput[];
}
export interface PlaceholderResult {
  placeholderId: string;
  secretType: string;
  path: string;
  commitSha: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  endColumn: number;
  expireAt: Date;
}
export interface SubmitPushResult {
  blocked: boolean;
  placeholders: PlaceholderResult[];
  /** alerts created or given a new location by this push */
  alerts: Array<{ number: number; created: boolean }>;
  repository: RepositoryEntity;
}
export interface SubmitContentInput {
  repository: string;
  /** a non-commit location type: issue_title, issue_body, issue_comment, discussion_*, pull_request_* */
  locationType: string;
  url: string;
  content: string;
}
export interface BypassInput {
  reason: unknown;
  placeholderId: unknown;
}
export interface BypassResult {
  reason: 'false_positive' | 'used_in_tests' | 'will_fix_later';
  expireAt: Date;
  tokenType: string;
}
export interface StartScanInput {
  repository: string;
  kind: string;
}

export class SecretScanningPushService {
  submitPush(_ctx: RequestContext, _input: SubmitPushInput): Promise<SubmitPushResult> {
    throw new Error('not implemented yet');
  }
  submitContent(_ctx: RequestContext, _input: SubmitContentInput): Promise<{ alerts: Array<{ number: number; created: boolean }>; repository: RepositoryEntity }> {
    throw new Error('not implemented yet');
  }
  /** Endpoint 6. */
  createBypass(_ctx: RequestContext, _owner: string, _name: string, _input: BypassInput): Promise<BypassResult> {
    throw new Error('not implemented yet');
  }
  startScan(_ctx: RequestContext, _input: StartScanInput): Promise<{ scan: SecretScanningScanEntity; kind: ScanKind; repository: RepositoryEntity }> {
    throw new Error('not implemented yet');
  }
}
