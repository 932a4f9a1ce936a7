// The OAuth 2 / OpenID Connect authorization server of the OAuth tests: npm `oidc-provider`
// (a certified implementation) on a loopback port, with throwaway clients read from argv[2]
// (JSON). Run by node from .tools/oauth/ (tests/_oidc.ts installs it there).
//
// argv[2]: { "clients": [...oidc-provider client metadata],
//            "accessTokenTTL": seconds, "resources": { "<resource URL>": "<scope>" },
//            "anyResourceScope": "<scope for any other resource>" }
// stdout: one JSON line per event: {"event":"listening","issuer":…} first, then
//         {"event":"token","grant":…,"status":…,"resource":…} per token request.
import { createServer } from "node:http";
import { Provider } from "oidc-provider";

const options = JSON.parse(process.argv[2] ?? "{}");
const resources = options.resources ?? {};
const ttl = options.accessTokenTTL ?? 3600;

const server = createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: options.clients ?? [],
  // The scopes a client may register for (the resource scopes below besides OpenID's).
  scopes: [
    "openid",
    "offline_access",
    ...new Set(
      [...Object.values(resources), options.anyResourceScope].filter(Boolean),
    ),
  ],
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: () => true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // A client credentials request without `resource` gets a token for no API (refused there).
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => {
        const scope = resources[resource] ?? options.anyResourceScope;
        if (scope === undefined) {
          throw new Error(`unknown resource ${resource}`);
        }
        return {
          scope,
          audience: resource,
          accessTokenTTL: ttl,
          accessTokenFormat: "opaque",
        };
      },
    },
  },
  ttl: { ClientCredentials: ttl, AccessToken: ttl },
  // Every authorization code grant gets a refresh token (no offline_access consent dance).
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  pkce: { required: () => true },
});
provider.proxy = false;

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === "/token") {
    const params = ctx.oidc?.params ?? {};
    const line = {
      event: "token",
      status: ctx.status,
      grant: params.grant_type ?? null,
    };
    if (params.resource !== undefined) line.resource = params.resource;
    process.stdout.write(JSON.stringify(line) + "\n");
  }
});

server.on("request", provider.callback());
process.stdout.write(JSON.stringify({ event: "listening", issuer }) + "\n");
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
