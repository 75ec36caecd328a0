import type { McpServerCreate, McpServerUpdate, ToolPolicyUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices, productServices } from '../../auth/index.ts';
import { createMcpApi, createToolPolicyApi, createToolsApi } from '../api.ts';

const mcpKeys = {
  list: ['mcp', 'servers'] as const,
  /** What santito editors may pick: it changes with the servers and the policy's decisions. */
  tools: ['mcp', 'tools'] as const,
  policy: ['mcp', 'policy'] as const,
};

function mcpApi() {
  return createMcpApi(authServices().accountHttp);
}

export function useMcpServers() {
  return useQuery({ queryKey: mcpKeys.list, queryFn: () => mcpApi().list() });
}

export function useSaveMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: null; body: McpServerCreate } | { id: string; body: McpServerUpdate }) =>
      input.id === null ? mcpApi().create(input.body) : mcpApi().update(input.id, input.body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: mcpKeys.list });
      void client.invalidateQueries({ queryKey: mcpKeys.tools });
    },
  });
}

export function useRefreshMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => mcpApi().refresh(id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: mcpKeys.list });
      void client.invalidateQueries({ queryKey: mcpKeys.tools });
    },
  });
}

export function useDeleteMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => mcpApi().remove(id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: mcpKeys.list });
      void client.invalidateQueries({ queryKey: mcpKeys.tools });
    },
  });
}

/** The tools a santito may be given, with the policy's decision for each. */
export function useTools(enabled = true) {
  return useQuery({
    queryKey: mcpKeys.tools,
    queryFn: () => createToolsApi(productServices().accountHttp).list(),
    enabled,
  });
}

export function useToolPolicy() {
  return useQuery({
    queryKey: mcpKeys.policy,
    queryFn: () => createToolPolicyApi(authServices().accountHttp).get(),
  });
}

export function useSaveToolPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ToolPolicyUpdate) => createToolPolicyApi(authServices().accountHttp).save(body),
    onSuccess: (policy) => {
      client.setQueryData(mcpKeys.policy, policy);
      // The decisions shown beside each tool follow the rules.
      void client.invalidateQueries({ queryKey: mcpKeys.tools });
    },
  });
}
