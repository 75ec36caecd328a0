import type { Job, JobRun } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createJobsApi } from '../api.ts';

const jobsApi = () => createJobsApi(authServices().accountHttp);

/** How often a screen showing a running job asks again, until the run has ended. */
export const RUN_POLL_MS = 1_000;

export const jobKeys = {
  all: ['jobs'] as const,
  list: () => [...jobKeys.all, 'list'] as const,
};

/** Every job of the cluster with its last run; asked again each second while one of them runs. */
export function useJobs() {
  return useQuery({
    queryKey: jobKeys.list(),
    queryFn: () => jobsApi().list(),
    refetchInterval: (query) =>
      query.state.data?.some((job) => job.lastRun?.status === 'running') ? RUN_POLL_MS : false,
  });
}

/**
 * Runs a job now. The run it answers (202, still running) becomes the job's last run at once, so
 * the list starts following it without waiting for the next read.
 */
export function useRunJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => jobsApi().run(name),
    onSuccess: (run: JobRun) => {
      client.setQueryData<Job[]>(jobKeys.list(), (jobs) =>
        jobs?.map((job) => (job.name === run.job ? { ...job, lastRun: run } : job)),
      );
      return client.invalidateQueries({ queryKey: jobKeys.list() });
    },
    // Refused as already running: the list shows that run and follows it.
    onError: () => client.invalidateQueries({ queryKey: jobKeys.list() }),
  });
}
