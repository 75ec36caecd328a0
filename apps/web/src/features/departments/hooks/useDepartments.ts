import type { Department, DepartmentCreate, DepartmentUpdate } from '@assistente/contracts';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { ALL_DEPARTMENTS_LIMIT, createDepartmentsApi, type DepartmentListParams } from '../api.ts';

const departmentsApi = () => createDepartmentsApi(authServices().accountHttp);

const departmentKeys = {
  all: ['departments'] as const,
  lists: () => [...departmentKeys.all, 'list'] as const,
  list: (params: Omit<DepartmentListParams, 'cursor'>) => [...departmentKeys.lists(), params] as const,
  /** Every department of one domain (null: the caller's), for selects and labels. */
  options: (domain: string | null) => [...departmentKeys.all, 'options', domain] as const,
};

/** The departments page: searched and paged with "load more". */
export function useDepartmentList(params: Omit<DepartmentListParams, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: departmentKeys.list(params),
    queryFn: ({ pageParam }) => departmentsApi().list({ ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

const loadOptions = async (domain: string | null) =>
  (await departmentsApi().list({ domain, limit: ALL_DEPARTMENTS_LIMIT })).items;

/** Every department of a domain (null: the caller's own). */
export function useDepartmentOptions(domain: string | null, enabled = true) {
  return useQuery({
    queryKey: departmentKeys.options(domain),
    queryFn: () => loadOptions(domain),
    enabled,
  });
}

/** id → name over the departments of several domains (the users grid of a SuperAdmin). */
export function useDepartmentNames(domains: readonly string[]): Map<string, string> {
  const results = useQueries({
    queries: domains.map((domain) => ({
      queryKey: departmentKeys.options(domain),
      queryFn: () => loadOptions(domain),
    })),
  });
  const names = new Map<string, string>();
  for (const result of results) for (const d of result.data ?? []) names.set(d._id, d.displayName);
  return names;
}

/** Departments change lists, selects and the names shown beside users: all under `departments`. */
function useInvalidateDepartments() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: departmentKeys.all });
}

export function useCreateDepartment() {
  const invalidate = useInvalidateDepartments();
  return useMutation({
    mutationFn: (body: DepartmentCreate) => departmentsApi().create(body),
    onSuccess: invalidate,
  });
}

export function useUpdateDepartment() {
  const invalidate = useInvalidateDepartments();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DepartmentUpdate }) => departmentsApi().update(id, body),
    onSuccess: invalidate,
  });
}

export function useDeleteDepartment() {
  const invalidate = useInvalidateDepartments();
  return useMutation({
    mutationFn: (department: Pick<Department, '_id'>) => departmentsApi().remove(department._id),
    onSuccess: invalidate,
  });
}
