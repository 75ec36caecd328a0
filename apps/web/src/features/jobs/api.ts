import type { Job, JobRun } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, parsed, typed } from '../../lib/http/schemas.ts';

/** /api/v1/jobs (SuperAdmin): the scheduler's jobs and running one now (docs/ARCHITECTURE.md#background-jobs). */
export function createJobsApi(client: ApiClient) {
  return {
    list: (): Promise<Job[]> => parsed(arrayOf(typed<Job>()), client.GET('/api/v1/jobs')),
    run: (name: string): Promise<JobRun> =>
      parsed(typed<JobRun>(), client.POST('/api/v1/jobs/{name}/run', { params: { path: { name } } })),
  };
}
