/**
 * Every workload `npm run bench` knows, in the order they run. Domains append theirs here
 * (BENCH_WORKLOADS=name,name picks a subset).
 */
import type { Workload } from '../lib/types';
import { CALENDAR_WORKLOADS } from './calendar';
import { IDENTITY_WORKLOADS } from './identity';
import { SECRET_SCANNING_WORKLOADS } from './secret-scanning';

export const WORKLOADS: Workload[] = [...IDENTITY_WORKLOADS, ...SECRET_SCANNING_WORKLOADS, ...CALENDAR_WORKLOADS];
