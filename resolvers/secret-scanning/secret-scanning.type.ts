/**
 * GraphQL types of secret scanning: alerts, locations (a union of the 13 detail shapes), scan history,
 * list filter/order inputs and mutation inputs/payloads. Enum values are GraphQL style (UPPER_CASE);
 * their internal values are the service's lowercase strings, so no mapping code is needed.
 */
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { createUnionType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MAX_RESOLUTION_COMMENT } from '../../src/services/secret-scanning/alert-types';
import { PUSH_LIMITS } from '../../src/services/secret-scanning/push.service';
import {
  ALERT_RESOLUTION_FILTERS,
  ALERT_RESOLUTIONS,
  ALERT_STATES,
  ALERT_VALIDITIES,
  AlertResolution,
  AlertState,
  AlertValidity,
  LOCATION_TYPES,
  LocationType,
  SCAN_KINDS,
  ScanKind,
  URL_LOCATION_TYPES,
} from '../../entities/secret-scanning';
import { enumFrom } from '../common/enum';
import { Node } from '../common/node';

// ------------------------------------------------------------------ enums

export const SecretScanningAlertStateEnum = enumFrom(ALERT_STATES);
export type SecretScanningAlertStateEnum = AlertState;
registerEnumType(SecretScanningAlertStateEnum, { name: 'SecretScanningAlertState', description: 'The state of a secret scanning alert.' });

export const SecretScanningAlertResolutionEnum = enumFrom(ALERT_RESOLUTIONS);
export type SecretScanningAlertResolutionEnum = AlertResolution;
registerEnumType(SecretScanningAlertResolutionEnum, {
  name: 'SecretScanningAlertResolution',
  description: 'Why a secret scanning alert was resolved.',
});

/** The list filter also accepts GitHub's two webhook-only resolutions (no alert here carries them). */
export const SecretScanningAlertResolutionFilterEnum = enumFrom(ALERT_RESOLUTION_FILTERS);
export type SecretScanningAlertResolutionFilterEnum = (typeof ALERT_RESOLUTION_FILTERS)[number];
registerEnumType(SecretScanningAlertResolutionFilterEnum, {
  name: 'SecretScanningAlertResolutionFilterValue',
  description: 'A resolution to filter alerts by (the REST `resolution` filter values).',
});

export const SecretScanningAlertValidityEnum = enumFrom(ALERT_VALIDITIES);
export type SecretScanningAlertValidityEnum = AlertValidity;
registerEnumType(SecretScanningAlertValidityEnum, { name: 'SecretScanningAlertValidity', description: 'Whether the detected secret is still valid.' });

/** What an update may set (UNKNOWN is the read-side default; send null to clear the override). */
export enum SecretScanningAlertValidityUpdateEnum {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
}
registerEnumType(SecretScanningAlertValidityUpdateEnum, {
  name: 'SecretScanningAlertValidityUpdate',
  description: 'A validity an update may set; null clears the override (back to UNKNOWN).',
});

export enum SecretScanningAlertOrderFieldEnum {
  CREATED = 'created',
  UPDATED = 'updated',
}
registerEnumType(SecretScanningAlertOrderFieldEnum, {
  name: 'SecretScanningAlertOrderField',
  description: 'Properties by which secret scanning alerts can be ordered.',
  valuesConfig: { UPDATED: { description: 'When the alert was last updated or resolved.' } },
});

export enum SecretScanningAlertOrderDirectionEnum {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SecretScanningAlertOrderDirectionEnum, {
  name: 'SecretScanningAlertOrderDirection',
  description: 'Possible directions in which to order a list of secret scanning alerts.',
});

export const SecretScanningLocationTypeEnum = enumFrom(LOCATION_TYPES);
export type SecretScanningLocationTypeEnum = LocationType;
registerEnumType(SecretScanningLocationTypeEnum, { name: 'SecretScanningLocationType', description: 'Where a secret was found.' });

/**
 * Location types of content submitted outside a push: the issue, discussion and pull request types
 * (the push service's CONTENT_LOCATION_TYPES; the commit forms need a path and a commit, so they come from pushes).
 */
export const SecretScanningContentLocationTypeEnum = enumFrom(URL_LOCATION_TYPES);
export type SecretScanningContentLocationTypeEnum = (typeof URL_LOCATION_TYPES)[number];
registerEnumType(SecretScanningContentLocationTypeEnum, {
  name: 'SecretScanningContentLocationType',
  description: 'The kind of issue, discussion or pull request content submitted for scanning.',
});

export enum SecretScanningBypassReasonEnum {
  FALSE_POSITIVE = 'false_positive',
  USED_IN_TESTS = 'used_in_tests',
  WILL_FIX_LATER = 'will_fix_later',
}
registerEnumType(SecretScanningBypassReasonEnum, { name: 'SecretScanningBypassReason', description: 'Why push protection was bypassed.' });

export const SecretScanningScanKindEnum = enumFrom(SCAN_KINDS);
export type SecretScanningScanKindEnum = ScanKind;
registerEnumType(SecretScanningScanKindEnum, { name: 'SecretScanningScanKind', description: 'The kind of a secret scan.' });

/** The kinds of scan a client may start (incremental scans run on every push). */
export const SecretScanningRescanKindEnum = enumFrom(SCAN_KINDS.filter((k): k is Exclude<ScanKind, 'incremental'> => k !== 'incremental'));
export type SecretScanningRescanKindEnum = Exclude<ScanKind, 'incremental'>;
registerEnumType(SecretScanningRescanKindEnum, { name: 'SecretScanningRescanKind', description: 'A kind of scan that can be started on demand.' });

export enum SecretScanningScanStatusEnum {
  IN_PROGRESS = 'in_progress',
  COMPLETED = 'completed',
  FAILED = 'failed',
}
registerEnumType(SecretScanningScanStatusEnum, { name: 'SecretScanningScanStatus', description: 'The status of a secret scan.' });

// ------------------------------------------------------------------ location details (one type per location type)

/** The URLs of a commit-form location (src/services/secret-scanning/urls.ts `commitLocationUrls`). */
export interface CommitLocationUrls {
  blobUrl: string | null;
  commitUrl: string | null;
  pageUrl: string | null;
}

/** The range of a commit-form location; its URLs are built when first read (lists seldom select them). */
@ObjectType({ simpleResolvers: true })
abstract class CommitFormLocation {
  @Field(() => String, { nullable: true }) path: string | null;
  @Field(() => Int, { nullable: true }) startLine: number | null;
  @Field(() => Int, { nullable: true }) endLine: number | null;
  @Field(() => Int, { nullable: true, description: 'Counted as if the file were 8-bit ASCII.' }) startColumn: number | null;
  @Field(() => Int, { nullable: true }) endColumn: number | null;
  @Field(() => String, { nullable: true }) blobSha: string | null;
  @Field(() => String, { nullable: true }) commitSha: string | null;
  private urlsOf: () => CommitLocationUrls;
  private built: CommitLocationUrls | undefined;

  constructor(
    l: { path: string | null; startLine: number | null; endLine: number | null; startColumn: number | null; endColumn: number | null; blobSha: string | null; commitSha: string | null },
    urls: () => CommitLocationUrls,
  ) {
    this.path = l.path;
    this.startLine = l.startLine;
    this.endLine = l.endLine;
    this.startColumn = l.startColumn;
    this.endColumn = l.endColumn;
    this.blobSha = l.blobSha;
    this.commitSha = l.commitSha;
    this.urlsOf = urls;
    this.built = undefined;
  }

  protected urls(): CommitLocationUrls {
    return (this.built ??= this.urlsOf());
  }
}

@ObjectType('SecretScanningCommitLocation', { simpleResolvers: true, description: 'A secret found in a commit: the file, range, blob and commit.' })
export class SecretScanningCommitLocation extends CommitFormLocation {
  @Field(() => String, { nullable: true, description: 'API URL of the blob.' })
  get blobUrl(): string | null {
    return this.urls().blobUrl;
  }

  @Field(() => String, { nullable: true, description: 'API URL of the commit.' })
  get commitUrl(): string | null {
    return this.urls().commitUrl;
  }
}

@ObjectType('SecretScanningWikiCommitLocation', { simpleResolvers: true, description: 'A secret found in a commit of the wiki.' })
export class SecretScanningWikiCommitLocation extends CommitFormLocation {
  @Field(() => String, { nullable: true, description: 'Web URL of the wiki page at that commit.' })
  get pageUrl(): string | null {
    return this.urls().pageUrl;
  }

  @Field(() => String, { nullable: true, description: 'Web URL comparing the wiki commit.' })
  get commitUrl(): string | null {
    return this.urls().commitUrl;
  }
}

@ObjectType('SecretScanningIssueTitleLocation', { simpleResolvers: true, description: 'A secret found in the title of an issue.' })
export class SecretScanningIssueTitleLocation {
  @Field(() => String, { nullable: true }) issueTitleUrl: string | null;
}
@ObjectType('SecretScanningIssueBodyLocation', { simpleResolvers: true, description: 'A secret found in the body of an issue.' })
export class SecretScanningIssueBodyLocation {
  @Field(() => String, { nullable: true }) issueBodyUrl: string | null;
}
@ObjectType('SecretScanningIssueCommentLocation', { simpleResolvers: true, description: 'A secret found in a comment on an issue.' })
export class SecretScanningIssueCommentLocation {
  @Field(() => String, { nullable: true }) issueCommentUrl: string | null;
}
@ObjectType('SecretScanningDiscussionTitleLocation', { simpleResolvers: true, description: 'A secret found in the title of a discussion.' })
export class SecretScanningDiscussionTitleLocation {
  @Field(() => String, { nullable: true }) discussionTitleUrl: string | null;
}
@ObjectType('SecretScanningDiscussionBodyLocation', { simpleResolvers: true, description: 'A secret found in the body of a discussion.' })
export class SecretScanningDiscussionBodyLocation {
  @Field(() => String, { nullable: true }) discussionBodyUrl: string | null;
}
@ObjectType('SecretScanningDiscussionCommentLocation', { simpleResolvers: true, description: 'A secret found in a comment on a discussion.' })
export class SecretScanningDiscussionCommentLocation {
  @Field(() => String, { nullable: true }) discussionCommentUrl: string | null;
}
@ObjectType('SecretScanningPullRequestTitleLocation', { simpleResolvers: true, description: 'A secret found in the title of a pull request.' })
export class SecretScanningPullRequestTitleLocation {
  @Field(() => String, { nullable: true }) pullRequestTitleUrl: string | null;
}
@ObjectType('SecretScanningPullRequestBodyLocation', { simpleResolvers: true, description: 'A secret found in the body of a pull request.' })
export class SecretScanningPullRequestBodyLocation {
  @Field(() => String, { nullable: true }) pullRequestBodyUrl: string | null;
}
@ObjectType('SecretScanningPullRequestCommentLocation', { simpleResolvers: true, description: 'A secret found in a comment on a pull request.' })
export class SecretScanningPullRequestCommentLocation {
  @Field(() => String, { nullable: true }) pullRequestCommentUrl: string | null;
}
@ObjectType('SecretScanningPullRequestReviewLocation', { simpleResolvers: true, description: 'A secret found in a pull request review.' })
export class SecretScanningPullRequestReviewLocation {
  @Field(() => String, { nullable: true }) pullRequestReviewUrl: string | null;
}
@ObjectType('SecretScanningPullRequestReviewCommentLocation', { simpleResolvers: true, description: 'A secret found in a pull request review comment.' })
export class SecretScanningPullRequestReviewCommentLocation {
  @Field(() => String, { nullable: true }) pullRequestReviewCommentUrl: string | null;
}

/** Detail classes in the order of SecretScanningLocationTypeEnum. */
export const LOCATION_DETAIL_CLASSES = [
  SecretScanningCommitLocation,
  SecretScanningWikiCommitLocation,
  SecretScanningIssueTitleLocation,
  SecretScanningIssueBodyLocation,
  SecretScanningIssueCommentLocation,
  SecretScanningDiscussionTitleLocation,
  SecretScanningDiscussionBodyLocation,
  SecretScanningDiscussionCommentLocation,
  SecretScanningPullRequestTitleLocation,
  SecretScanningPullRequestBodyLocation,
  SecretScanningPullRequestCommentLocation,
  SecretScanningPullRequestReviewLocation,
  SecretScanningPullRequestReviewCommentLocation,
] as const;

export const SecretScanningLocationDetails = createUnionType({
  name: 'SecretScanningLocationDetails',
  description: 'The details of a location; which member it is follows the location `type`.',
  types: () => LOCATION_DETAIL_CLASSES,
  resolveType: (value) => LOCATION_DETAIL_CLASSES.find((c) => value instanceof c)?.name,
});

@ObjectType('SecretScanningLocation', { simpleResolvers: true, description: 'A place where a secret was found.' })
export class SecretScanningLocation {
  @Field(() => SecretScanningLocationTypeEnum) type: SecretScanningLocationTypeEnum;
  // `details` is resolved by SecretScanningLocationResolver.
}

// ------------------------------------------------------------------ alert

@ObjectType('SecretScanningAlert', { simpleResolvers: true, implements: [Node], description: 'A secret detected in a repository.' })
export class SecretScanningAlert {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: 'The alert number within its repository.' }) number: number;
  @Field() createdAt: Date;
  @Field({ description: 'When the alert was last updated or resolved.' }) updatedAt: Date;
  @Field(() => SecretScanningAlertStateEnum) state: SecretScanningAlertStateEnum;
  @Field(() => SecretScanningAlertResolutionEnum, { nullable: true, description: 'Null while open.' })
  resolution: SecretScanningAlertResolutionEnum | null;
  @Field(() => Date, { nullable: true }) resolvedAt: Date | null;
  @Field(() => String, { nullable: true }) resolutionComment: string | null;
  @Field({ description: 'The secret type slug.' }) secretType: string;
  @Field({ description: 'The human-readable secret type.' }) secretTypeDisplayName: string;
  @Field(() => String, { nullable: true }) provider: string | null;
  @Field(() => String, { nullable: true, description: 'The value to use in the `providers` / `excludeProviders` filters.' })
  providerSlug: string | null;
  @Field({ description: 'The literal secret.' }) secret: string;
  @Field(() => SecretScanningAlertValidityEnum) validity: SecretScanningAlertValidityEnum;
  @Field() publiclyLeaked: boolean;
  @Field() multiRepo: boolean;
  @Field() isBase64Encoded: boolean;
  @Field() pushProtectionBypassed: boolean;
  @Field(() => Date, { nullable: true }) pushProtectionBypassedAt: Date | null;
}

// ------------------------------------------------------------------ scan history

@ObjectType('SecretScanningScan', { simpleResolvers: true, description: 'One secret scan run of a repository.' })
export class SecretScanningScan {
  @Field(() => SecretScanningScanKindEnum) kind: SecretScanningScanKindEnum;
  @Field({ description: 'What was scanned: git, issue, discussion, ...' }) type: string;
  @Field(() => SecretScanningScanStatusEnum) status: SecretScanningScanStatusEnum;
  @Field(() => Date, { nullable: true, description: 'Null for incremental scans and while pending.' }) startedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Null while running.' }) completedAt: Date | null;
  @Field(() => String, { nullable: true, description: 'Custom pattern scans only.' }) patternSlug: string | null;
  @Field(() => String, { nullable: true, description: 'Custom pattern scans only: repository, organization or enterprise.' })
  patternScope: string | null;
}

@ObjectType('SecretScanningScanHistory', { simpleResolvers: true, description: 'The latest scans of a repository, by kind and scanned type.' })
export class SecretScanningScanHistory {
  @Field(() => [SecretScanningScan]) incrementalScans: unknown[];
  @Field(() => [SecretScanningScan]) backfillScans: unknown[];
  @Field(() => [SecretScanningScan]) patternUpdateScans: unknown[];
  @Field(() => [SecretScanningScan]) customPatternBackfillScans: unknown[];
  @Field(() => [SecretScanningScan]) genericSecretsBackfillScans: unknown[];
}

// ------------------------------------------------------------------ list inputs

const LIST_MAX = 100;
const SLUG_MAX = 100;

@InputType('SecretScanningAlertFilter', { description: 'Filters of secret scanning alert lists (the REST query parameters).' })
export class SecretScanningAlertFilter {
  @Field(() => SecretScanningAlertStateEnum, { nullable: true })
  @IsOptional()
  state?: SecretScanningAlertStateEnum | null;

  @Field(() => [String], { nullable: true, description: 'Secret type slugs to keep (cannot be combined with excludeSecretTypes).' })
  @IsOptional()
  @ArrayMaxSize(LIST_MAX)
  @MaxLength(SLUG_MAX, { each: true })
  secretTypes?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Secret type slugs to leave out.' })
  @IsOptional()
  @ArrayMaxSize(LIST_MAX)
  @MaxLength(SLUG_MAX, { each: true })
  excludeSecretTypes?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Provider slugs to keep (cannot be combined with excludeProviders).' })
  @IsOptional()
  @ArrayMaxSize(LIST_MAX)
  @MaxLength(SLUG_MAX, { each: true })
  providers?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Provider slugs to leave out.' })
  @IsOptional()
  @ArrayMaxSize(LIST_MAX)
  @MaxLength(SLUG_MAX, { each: true })
  excludeProviders?: string[] | null;

  @Field(() => [SecretScanningAlertResolutionFilterEnum], { nullable: true, description: 'Only alerts resolved with one of these.' })
  @IsOptional()
  @ArrayMaxSize(10)
  resolutions?: SecretScanningAlertResolutionFilterEnum[] | null;

  @Field(() => [SecretScanningAlertValidityEnum], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(10)
  validities?: SecretScanningAlertValidityEnum[] | null;

  @Field(() => String, { nullable: true, description: 'A login, `*` (assigned to anyone) or `none` (unassigned).' })
  @IsOptional()
  @MaxLength(SLUG_MAX)
  assignee?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only publicly leaked alerts (false: no filter, as in REST).' })
  @IsOptional()
  isPubliclyLeaked?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only alerts whose secret is in several repositories (false: no filter, as in REST).' })
  @IsOptional()
  isMultiRepo?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only alerts created by a push protection bypass; false: only the others.' })
  @IsOptional()
  isBypassed?: boolean | null;
}

@InputType('SecretScanningAlertOrder', { description: 'Ordering of secret scanning alerts; the default is newest first.' })
export class SecretScanningAlertOrder {
  @Field(() => SecretScanningAlertOrderFieldEnum, { defaultValue: SecretScanningAlertOrderFieldEnum.CREATED })
  field: SecretScanningAlertOrderFieldEnum;

  @Field(() => SecretScanningAlertOrderDirectionEnum, { defaultValue: SecretScanningAlertOrderDirectionEnum.DESC })
  direction: SecretScanningAlertOrderDirectionEnum;
}

// ------------------------------------------------------------------ mutation inputs and payloads

const REPOSITORY_RE = /^[^/\s]+\/[^/\s]+$/;
const REPOSITORY_MESSAGE = 'repository must be written owner/name';

@InputType('UpdateSecretScanningAlertInput', {
  description: 'Resolve or reopen, assign or unassign, and set the validity of an alert. A field sent as null is applied (e.g. assignee: null unassigns); an absent field is left alone.',
})
export class UpdateSecretScanningAlertInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(REPOSITORY_RE, { message: REPOSITORY_MESSAGE })
  repository: string;

  @Field(() => Int)
  @Min(1)
  @Max(2_147_483_647)
  number: number;

  @Field(() => SecretScanningAlertStateEnum, { nullable: true })
  @IsOptional()
  state?: SecretScanningAlertStateEnum | null;

  @Field(() => SecretScanningAlertResolutionEnum, { nullable: true, description: 'Required when state is RESOLVED.' })
  @IsOptional()
  resolution?: SecretScanningAlertResolutionEnum | null;

  @Field(() => String, { nullable: true, description: 'A comment when closing or reopening; cannot be changed once set.' })
  @IsOptional()
  @MaxLength(MAX_RESOLUTION_COMMENT)
  resolutionComment?: string | null;

  @Field(() => String, { nullable: true, description: 'A login with write access to the repository; null unassigns.' })
  @IsOptional()
  @MaxLength(39)
  assignee?: string | null;

  @Field(() => SecretScanningAlertValidityUpdateEnum, { nullable: true, description: 'null clears the override.' })
  @IsOptional()
  validity?: SecretScanningAlertValidityUpdateEnum | null;
}

@ObjectType('UpdateSecretScanningAlertPayload', { simpleResolvers: true })
export class UpdateSecretScanningAlertPayload {
  @Field(() => SecretScanningAlert) alert: unknown;
}

@InputType('CreatePushProtectionBypassInput')
export class CreatePushProtectionBypassInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(REPOSITORY_RE, { message: REPOSITORY_MESSAGE })
  repository: string;

  @Field(() => SecretScanningBypassReasonEnum)
  reason: SecretScanningBypassReasonEnum;

  @Field({ description: 'The placeholder id returned when the push was blocked.' })
  @MinLength(1)
  @MaxLength(100)
  placeholderId: string;
}

@ObjectType('CreatePushProtectionBypassPayload', { simpleResolvers: true })
export class CreatePushProtectionBypassPayload {
  @Field(() => SecretScanningBypassReasonEnum) reason: SecretScanningBypassReasonEnum;
  @Field({ description: 'Until when the secret may be pushed.' }) expireAt: Date;
  @Field({ description: 'The secret type slug.' }) tokenType: string;
}

@InputType('SubmitPushFileInput')
export class SubmitPushFileInput {
  @Field()
  @MinLength(1)
  @MaxLength(PUSH_LIMITS.path)
  path: string;

  @Field({ description: 'Text content; all files of a push together may hold at most 5 MiB.' })
  @MaxLength(PUSH_LIMITS.bytes)
  content: string;
}

@InputType('SubmitPushCommitInput')
export class SubmitPushCommitInput {
  @Field()
  @Matches(/^[0-9a-fA-F]{7,64}$/, { message: 'sha must be 7 to 64 hexadecimal characters' })
  sha: string;

  @Field(() => [SubmitPushFileInput])
  @ArrayMaxSize(PUSH_LIMITS.files)
  @ValidateNested({ each: true })
  files: SubmitPushFileInput[];
}

@InputType('SubmitPushInput', { description: 'A push to scan (push protection blocks it when it carries a new secret).' })
export class SubmitPushInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(REPOSITORY_RE, { message: REPOSITORY_MESSAGE })
  repository: string;

  @Field({ description: 'The pushed ref, e.g. refs/heads/main.' })
  @MinLength(1)
  @MaxLength(PUSH_LIMITS.ref)
  ref: string;

  @Field(() => [SubmitPushCommitInput])
  @ArrayMinSize(1)
  @ArrayMaxSize(PUSH_LIMITS.commits)
  @ValidateNested({ each: true })
  commits: SubmitPushCommitInput[];
}

@ObjectType('SecretScanningPushPlaceholder', { simpleResolvers: true, description: 'A secret the push was blocked on; bypass it with createPushProtectionBypass.' })
export class SecretScanningPushPlaceholder {
  @Field() placeholderId: string;
  @Field() secretType: string;
  @Field() path: string;
  @Field() commitSha: string;
  @Field(() => Int) startLine: number;
  @Field(() => Int) endLine: number;
  @Field(() => Int) startColumn: number;
  @Field(() => Int) endColumn: number;
  @Field() expireAt: Date;
}

@ObjectType('SecretScanningAlertReference', { simpleResolvers: true, description: 'An alert created, or given a new location, by scanned content.' })
export class SecretScanningAlertReference {
  @Field(() => Int) number: number;
  @Field({ description: 'true when the alert is new.' }) created: boolean;
  // `alert` is resolved by SecretScanningAlertReferenceResolver (null + error when the viewer may not read alerts).
}

@ObjectType('SubmitPushPayload', { simpleResolvers: true })
export class SubmitPushPayload {
  @Field({ description: 'true when push protection refused the push.' }) blocked: boolean;
  @Field(() => [SecretScanningPushPlaceholder]) placeholders: unknown[];
  @Field(() => [SecretScanningAlertReference], {
    nullable: true,
    description:
      'Alerts created or given a new location by the push; null when the pusher may not read the repository\'s secret scanning alerts (they learn only `blocked` and the placeholders).',
  })
  alerts: unknown[] | null;
}

@InputType('SubmitContentInput', { description: 'Issue, discussion or pull request content to scan (never blocked by push protection).' })
export class SubmitContentInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(REPOSITORY_RE, { message: REPOSITORY_MESSAGE })
  repository: string;

  @Field(() => SecretScanningContentLocationTypeEnum)
  locationType: SecretScanningContentLocationTypeEnum;

  @Field({ description: 'The absolute http(s) URL of the item (it becomes the location URL).' })
  @MinLength(1)
  @MaxLength(PUSH_LIMITS.url)
  url: string;

  @Field()
  @MaxLength(PUSH_LIMITS.bytes)
  content: string;
}

@ObjectType('SubmitContentPayload', { simpleResolvers: true })
export class SubmitContentPayload {
  @Field(() => [SecretScanningAlertReference], {
    nullable: true,
    description: "Alerts created or given a new location by the content; null when the submitter may not read the repository's secret scanning alerts.",
  })
  alerts: unknown[] | null;
}

@InputType('StartSecretScanInput')
export class StartSecretScanInput {
  @Field({ description: 'The repository, written owner/name.' })
  @MaxLength(140)
  @Matches(REPOSITORY_RE, { message: REPOSITORY_MESSAGE })
  repository: string;

  @Field(() => SecretScanningRescanKindEnum)
  kind: SecretScanningRescanKindEnum;
}

@ObjectType('StartSecretScanPayload', { simpleResolvers: true })
export class StartSecretScanPayload {
  @Field(() => SecretScanningScan) scan: unknown;
}
