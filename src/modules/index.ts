/**
 * The gateway's domains, in the order their services are made (a module's `requires` come before it) and their
 * REST rows are listed. The one place that names them: everything else iterates this list.
 */
import { calendarModule } from './calendar/calendar.module';
import { identityModule } from './identity/identity.module';
import { secretScanningModule } from './secret-scanning/secret-scanning.module';
import { workflowModule } from './workflow/workflow.module';

export const MODULES = [identityModule, secretScanningModule, calendarModule, workflowModule] as const;
