/**
 * Workflow DataLoaders (fresh per request, flat so clearLoaders reaches them): definitions and jobs by id. A
 * page of jobs reads the definitions of all its jobs in one statement. Visibility is never decided here: the
 * workflow services (src/services/workflow/access.ts) decide what a viewer sees of what these load.
 */
import type { EntityManager } from 'typeorm';
import { WorkflowDefinitionEntity, WorkflowJobEntity } from '../../entities/workflow';
import { byIdLoader } from './loader';

export function createWorkflowLoaders(db: EntityManager) {
  return {
    /** workflow: definitions by id (a job's definition, node(id:)) */
    workflowDefinitionById: byIdLoader(db, WorkflowDefinitionEntity),
    /** workflow: jobs by id (node(id:)); visibility is applied by the jobs service afterwards */
    workflowJobById: byIdLoader(db, WorkflowJobEntity),
  };
}
