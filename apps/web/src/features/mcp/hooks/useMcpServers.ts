import type {
  McpServer,
  McpServerCreate,
  McpServerUpdate,
  ToolList,
  ToolPolicyUpdate,
} from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices, productServices } from '../../auth/index.ts';
import { createMcpApi, createToolPolicyApi, createToolsApi } from '../api.ts';

export const mcpKeys = {
  list: ['mcp', 'servers'] as const,
  /** What santito editors may pick: it changes with the servers and the policy's decisions. */
  tools: ['mcp', 'tools'] as const,
  policy: ['mcp', 'policy'] as const,
};

function mcpApi() {
  return createMcpApi(authServices().accountHttp);
}

/** A domain's server, not a person's own (an Admin's list has their private ones too). */
export const isDomainServer = (server: McpServer) => server.scope === 'domain';

/** The servers the caller sees; `pick` keeps those one screen shows (the domain's, or the caller's own). */
export function useMcpServers(pick?: (server: McpServer) => boolean) {
  return useQuery({
    queryKey: mcpKeys.list,
    queryFn: () => mcpApi().list(),
    ...(pick ? { select: (servers: McpServer[]) => servers.filter(pick) } : {}),
  });
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

const loadTools = () => createToolsApi(productServices().accountHttp).get();
const userServersOf = (list: ToolList) => list.userServers;

/** The tools a santito may be given, MCP and built-in, with the policy's decision for each. */
export function useTools(enabled = true) {
  return useQuery({ queryKey: mcpKeys.tools, queryFn: loadTools, enabled });
}

/** Whether the domain's tool policy lets the caller add MCP servers of their own. */
export function useMayAddServers() {
  return useQuery({ queryKey: mcpKeys.tools, queryFn: loadTools, select: userServersOf });
}

/** Forgets the caller's connection to an OAuth server: its tools go from their list. */
export function useDisconnectMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => mcpApi().disconnect(id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: mcpKeys.list });
      void client.invalidateQueries({ queryKey: mcpKeys.tools });
    },
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
