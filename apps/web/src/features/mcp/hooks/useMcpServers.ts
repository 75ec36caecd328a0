import type { McpServerCreate, McpServerUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createMcpApi } from '../api.ts';

const mcpKeys = { list: ['mcp', 'servers'] as const };

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
    onSuccess: () => void client.invalidateQueries({ queryKey: mcpKeys.list }),
  });
}

export function useRefreshMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => mcpApi().refresh(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: mcpKeys.list }),
  });
}

export function useDeleteMcpServer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => mcpApi().remove(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: mcpKeys.list }),
  });
}
