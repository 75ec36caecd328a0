import { McpLimits } from '@assistente/contracts';
import { AppError, notFound } from '../../lib/errors.ts';

export const mcpServerNotFound = () => notFound('No such MCP server');
export const tooManyMcpServers = (perUser?: number) =>
  new AppError(
    'CONFLICT',
    perUser
      ? `You can add at most ${perUser} MCP servers of your own; remove one you no longer use.`
      : `A domain can hold at most ${McpLimits.perDomain} MCP servers; remove one it no longer uses.`,
  );
