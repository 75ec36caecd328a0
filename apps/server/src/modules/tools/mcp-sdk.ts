// The MCP SDK's client side, loaded by the first connection, discovery or sign-in to an MCP server:
// a start that serves no MCP call loads none of it (docs/ARCHITECTURE.md#build-and-run).

async function load() {
  const [client, transport, auth, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: transport.StreamableHTTPClientTransport,
    StreamableHTTPError: transport.StreamableHTTPError,
    auth: auth.auth,
    extractWWWAuthenticateParams: auth.extractWWWAuthenticateParams,
    ErrorCode: types.ErrorCode,
    McpError: types.McpError,
    LATEST_PROTOCOL_VERSION: types.LATEST_PROTOCOL_VERSION,
  };
}

export type McpSdk = Awaited<ReturnType<typeof load>>;

let loading: Promise<McpSdk> | undefined;

/** The SDK, imported once. */
export function mcpSdk(): Promise<McpSdk> {
  loading ??= load();
  return loading;
}
