/**
 * Workflow DataLoaders (fresh per request, flat so clearLoaders reaches them): definitions and jobs by id, and
 * what hangs off a list of them: a definition's newest versions, version counts, aliases and tags; a job's Map Runs
 * and their counts; Map Runs by id. A page of definitions (or jobs) reads each of these for all its rows in one
 * statement. Visibility is never decided here: the workflow services (src/services/workflow/access.ts) decide
 * what a viewer sees of what these load.
 */
import DataLoader from 'dataloader';
import { EntityManager, In, ObjectLiteral } from 'typeorm';
import {
  WorkflowDefinitionAliasEntity,
  WorkflowDefinitionEntity,
  WorkflowDefinitionVersionEntity,
  WorkflowJobEntity,
  WorkflowMapRunEntity,
  WorkflowTagEntity,
} from '../../entities/workflow';
import { byIdLoader, MAX_BATCH } from './loader';

/** Keys "parentId:n": the first n rows of each parent, in the given order, one statement per distinct n. */
function firstRowsLoader<T extends ObjectLiteral & { id: number }>(
  db: EntityManager,
  entity: new () => T,
  parentColumn: string,
  parentProperty: keyof T & string,
  order: { column: string; dir: 'ASC' | 'DESC' },
): DataLoader<string, T[]> {
  return new DataLoader<string, T[]>(
    async (keys) => {
      const byN = new Map<number, number[]>();
      for (const k of keys) {
        const [parent, n] = k.split(':').map(Number);
        byN.set(n, [...(byN.get(n) ?? []), parent]);
      }
      const found = new Map<string, T[]>();
      for (const [n, parents] of byN) {
        const meta = db.connection.getMetadata(entity);
        // The first n per parent by a window over the parent's index; the rows hydrate through TypeORM.
        const rows = await db
          .getRepository(entity)
          .createQueryBuilder('r')
          .where(
            `r.id IN (SELECT ranked.id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ${parentColumn} ORDER BY ${order.column} ${order.dir}) AS rn FROM ${meta.tableName} WHERE ${parentColumn} IN (:...parents)) ranked WHERE ranked.rn <= :n)`,
            { parents, n },
          )
          .orderBy(`r.${order.column}`, order.dir)
          .getMany();
        const sorted = new Map<number, T[]>(parents.map((p) => [p, []]));
        for (const r of rows) sorted.get(Number(r[parentProperty]))?.push(r);
        for (const [p, list] of sorted) found.set(`${p}:${n}`, list);
      }
      return keys.map((k) => found.get(k) ?? []);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** Rows per parent, counted in one GROUP BY statement per batch. */
function countLoader<T extends ObjectLiteral>(db: EntityManager, entity: new () => T, parentColumn: string): DataLoader<number, number> {
  return new DataLoader<number, number>(
    async (ids) => {
      const rows = await db
        .getRepository(entity)
        .createQueryBuilder('r')
        .select(`r.${parentColumn}`, 'parent')
        .addSelect('COUNT(1)', 'n')
        .where(`r.${parentColumn} IN (:...ids)`, { ids: [...ids] })
        .groupBy(`r.${parentColumn}`)
        .getRawMany<{ parent: number | string; n: number | string }>();
      const counts = new Map(rows.map((r) => [Number(r.parent), Number(r.n)]));
      return ids.map((id) => counts.get(id) ?? 0);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** All rows of each parent (for children a parent has few of: at most 100 aliases, 50 tags). */
function allRowsLoader<K extends string | number, T extends ObjectLiteral>(
  db: EntityManager,
  entity: new () => T,
  property: keyof T & string,
  order: Partial<Record<keyof T & string, 'ASC' | 'DESC'>>,
): DataLoader<K, T[]> {
  return new DataLoader<K, T[]>(
    async (keys) => {
      const rows = await db.getRepository(entity).find({ where: { [property]: In([...keys]) } as never, order: order as never });
      const by = new Map<K, T[]>(keys.map((k) => [k, []]));
      for (const r of rows) by.get((typeof keys[0] === 'number' ? Number(r[property]) : r[property]) as K)?.push(r);
      return keys.map((k) => by.get(k)!);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

export function createWorkflowLoaders(db: EntityManager) {
  return {
    /** workflow: definitions by id (a job's definition, node(id:)) */
    workflowDefinitionById: byIdLoader(db, WorkflowDefinitionEntity),
    /** workflow: jobs by id (node(id:)); visibility is applied by the jobs service afterwards */
    workflowJobById: byIdLoader(db, WorkflowJobEntity),
    /** workflow: "definitionId:n" -> its n newest versions (a definition's `versions` first page) */
    workflowVersionsFirst: firstRowsLoader(db, WorkflowDefinitionVersionEntity, 'definition_id', 'definitionId', { column: 'number', dir: 'DESC' }),
    /** workflow: definition id -> how many versions it has */
    workflowVersionCount: countLoader(db, WorkflowDefinitionVersionEntity, 'definition_id'),
    /** workflow: versions by ARN (an alias's routes) */
    workflowVersionByArn: new DataLoader<string, WorkflowDefinitionVersionEntity | null>(
      async (arns) => {
        const rows = await db.getRepository(WorkflowDefinitionVersionEntity).find({ where: { arn: In([...arns]) } });
        const by = new Map(rows.map((r) => [r.arn, r]));
        return arns.map((a) => by.get(a) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** workflow: definition id -> its aliases by name */
    workflowAliasesOf: allRowsLoader<number, WorkflowDefinitionAliasEntity>(db, WorkflowDefinitionAliasEntity, 'definitionId', { name: 'ASC' }),
    /** workflow: resource ARN -> its tags by key */
    workflowTagsOf: allRowsLoader<string, WorkflowTagEntity>(db, WorkflowTagEntity, 'resourceArn', { key: 'ASC' }),
    /** workflow: "jobId:n" -> the job's first n Map Runs, oldest first (as ListMapRuns) */
    workflowMapRunsFirst: firstRowsLoader(db, WorkflowMapRunEntity, 'job_id', 'jobId', { column: 'id', dir: 'ASC' }),
    /** workflow: job id -> how many Map Runs it started */
    workflowMapRunCount: countLoader(db, WorkflowMapRunEntity, 'job_id'),
    /** workflow: Map Runs by id (a child job's run) */
    workflowMapRunById: byIdLoader(db, WorkflowMapRunEntity),
  };
}
