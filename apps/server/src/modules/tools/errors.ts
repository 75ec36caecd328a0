import { McpLimits } from '@assistente/contracts';
import { AppError, notFound } from '../../lib/errors.ts';

export const mcpServerNotFound = () => notFound('No such MCP server');
export const tooManyMcpServers = () =>
  new AppError(
    'CONFLICT',
    `A domain can hold at most ${McpLimits.perDomain} MCP servers; remove one it no longer uses.`,
  );
