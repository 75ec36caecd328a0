import { type Job, type JobRun, JobRunSchema, JobSchema } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, parsed } from '../../lib/http/schemas.ts';

/** /api/v1/jobs (SuperAdmin): the scheduler's jobs and running one now (docs/ARCHITECTURE.md#background-jobs). */
export function createJobsApi(client: ApiClient) {
  return {
    list: (): Promise<Job[]> => parsed(arrayOf(JobSchema), client.GET('/api/v1/jobs')),
    run: (name: string): Promise<JobRun> =>
      parsed(JobRunSchema, client.POST('/api/v1/jobs/{name}/run', { params: { path: { name } } })),
  };
}
