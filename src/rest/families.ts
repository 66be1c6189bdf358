/**
 * The registry of REST families, in the order they claim requests no route matched: AWS JSON (X-Amz-Target
 * or /workflow), WordPress (/calendar), then GitHub (everything else: its API lives at the root).
 * Adding a family = one adapter in src/rest/<family>/family.ts + one entry here.
 */
import { awsFamily } from './aws/family';
import type { FamilyName, IncomingLike, RestFamily } from './family';
import { githubFamily } from './github/family';
import { wordpressFamily } from './wordpress/family';

export const FAMILIES: Record<FamilyName, RestFamily> = { github: githubFamily, wordpress: wordpressFamily, aws: awsFamily };

/** Claim order (the last family claims everything). */
const CLAIM_ORDER: RestFamily[] = [awsFamily, wordpressFamily, githubFamily];

/** The family that answers a request no route claimed (unknown paths, HTTP-level errors). */
export function familyOf(req: IncomingLike): RestFamily {
  return CLAIM_ORDER.find((f) => f.claims(req)) ?? githubFamily;
}

export function familyNamed(name: FamilyName): RestFamily {
  return FAMILIES[name];
}
