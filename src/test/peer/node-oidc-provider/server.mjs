// The benchmark's side-by-side peer (docs/benchmark.md, "Side by side with node-oidc-provider"): node-oidc-provider
// configured as close to Portcullis as it allows. Started by dev.portcullis.bench.PeerServer with the fixtures in
// PEER_* environment variables; everything is kept in the provider's in-memory adapter (no database).
import crypto from 'node:crypto';
import http from 'node:http';
import { Provider } from 'oidc-provider';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
};

const port = Number(env('PEER_PORT'));
const issuer = env('PEER_ISSUER');
const redirectUri = env('PEER_REDIRECT_URI');
const user = { username: env('PEER_USERNAME'), password: env('PEER_PASSWORD'), sub: env('PEER_SUB') };
// the access tokens' audience: a resource server whose tokens are RS256 JWTs (Portcullis issues JWT access tokens)
const resource = `${issuer}/api`;
const scope = 'openid profile';
const userinfoClientId = env('PEER_USERINFO_CLIENT_ID');

const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-rs256', alg: 'RS256', use: 'sig' };

const confidential = (clientId, secret) => ({
  client_id: clientId,
  client_secret: secret,
  token_endpoint_auth_method: 'client_secret_post',
  redirect_uris: [redirectUri],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
});

const provider = new Provider(issuer, {
  clients: [
    confidential(env('PEER_CONFIDENTIAL_ID'), env('PEER_CONFIDENTIAL_SECRET')),
    // node-oidc-provider serves userinfo only to its own opaque access tokens (no audience): this client gets those
    confidential(userinfoClientId, env('PEER_USERINFO_CLIENT_SECRET')),
    {
      client_id: env('PEER_PUBLIC_ID'),
      token_endpoint_auth_method: 'none',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
  scopes: ['openid', 'offline_access', 'profile', 'email'],
  claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
  findAccount: async (ctx, id) => (id !== user.sub ? undefined : {
    accountId: id,
    claims: async () => ({ sub: id, name: `Bench ${user.username}`, email: `${user.username}@example.com` }),
  }),
  pkce: { required: (ctx, client) => client.clientAuthMethod === 'none' },
  // Portcullis issues a refresh token with every code exchange and rotates it on every refresh
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: true,
  // Portcullis' default lifetimes (README, Settings), in seconds; the session's is its idle time-out
  ttl: {
    AuthorizationCode: 60,
    AccessToken: 3600,
    IdToken: 3600,
    RefreshToken: 2592000,
    Grant: 2592000,
    Session: 28800,
    Interaction: 600,
  },
  // consent skipped for the bench's clients (Portcullis: skip_consent): a grant of the bench's scope for the session
  loadExistingGrant: async (ctx) => {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      const existing = await ctx.oidc.provider.Grant.find(grantId);
      if (existing) return existing;
    }
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope(scope);
    grant.addResourceScope(resource, scope);
    await grant.save();
    return grant;
  },
  features: {
    devInteractions: { enabled: false },
    userinfo: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (ctx, client) => (client.clientId === userinfoClientId ? undefined : resource),
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({
        scope,
        audience: resource,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
});

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const equalSecret = (a, b) => {
  const x = crypto.createHash('sha256').update(String(a)).digest();
  const y = crypto.createHash('sha256').update(String(b)).digest();
  return crypto.timingSafeEqual(x, y);
};

async function readForm(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 8192) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

// the login interaction the bench's SignIn drives: an HTML form with a username and a password field
async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid || details.prompt.name !== 'login') {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`unexpected prompt ${details.prompt.name}`);
    return;
  }
  if (action === undefined && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(
      `<!DOCTYPE html><html><body><form method="post" action="/interaction/${escapeHtml(uid)}/login">`
        + '<input type="text" name="username" autocomplete="username"/>'
        + '<input type="password" name="password" autocomplete="current-password"/>'
        + '<button type="submit">Sign in</button></form></body></html>',
    );
    return;
  }
  if (action === 'login' && req.method === 'POST') {
    const form = await readForm(req);
    const ok = equalSecret(form.get('username'), user.username) && equalSecret(form.get('password'), user.password);
    const result = ok ? { login: { accountId: user.sub } } : { error: 'access_denied', error_description: 'wrong credentials' };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    return;
  }
  res.writeHead(404).end();
}

const callback = provider.callback();
const server = http.createServer((req, res) => {
  const m = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?(?:\?.*)?$/.exec(req.url);
  if (!m) {
    callback(req, res);
    return;
  }
  interaction(req, res, m[1], m[2]).catch((err) => {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(`interaction failed: ${err.message}`);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(port, '127.0.0.1', () => console.log(`node-oidc-provider ${issuer} listening on 127.0.0.1:${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
