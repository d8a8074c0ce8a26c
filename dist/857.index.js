export const id = 857;
export const ids = [857];
export const modules = {

/***/ 4857:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  OAuthLogin: () => (/* binding */ OAuthLogin)
});

// UNUSED EXPORTS: TokenEndpointError, metadataAddresses, withoutIdToken

// EXTERNAL MODULE: ./src/port.ts
var port = __webpack_require__(8676);
// EXTERNAL MODULE: ./node_modules/oauth4webapi/build/index.js
var build = __webpack_require__(5235);
// EXTERNAL MODULE: ./src/http/dispatcher.ts
var dispatcher = __webpack_require__(3839);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
;// CONCATENATED MODULE: ./src/http/fetch.ts
// The one fetch of the action (undici's, through a dispatcher of dispatcher.ts), for the door that speaks
// OAuth (the token endpoint, its metadata): an edge of its own, as transport.ts is for the cloud API, so
// the simulation replaces it and answers in-process.

function httpFetch(input, init) {
    return (0,undici.fetch)(input, init);
}

// EXTERNAL MODULE: ./src/http/phase.ts
var phase = __webpack_require__(3331);
// EXTERNAL MODULE: ./src/http/time-limit.ts
var time_limit = __webpack_require__(3689);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/inputs/address.ts
var address = __webpack_require__(1617);
// EXTERNAL MODULE: ./src/http/retry.ts
var retry = __webpack_require__(8902);
// EXTERNAL MODULE: ./src/format.ts
var format = __webpack_require__(6264);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
// EXTERNAL MODULE: ./src/advice.ts
var advice = __webpack_require__(6031);
// EXTERNAL MODULE: ./src/cloud/login/method.ts
var method = __webpack_require__(8954);
;// CONCATENATED MODULE: ./src/cloud/login/oauth.ts
// A stack with single sign-on: the token comes from an OAuth 2.0 token endpoint (the organisation's
// identity provider, or Bloomreach's Auth0), through oauth4webapi: client credentials with a secret,
// client credentials with GitHub's OIDC token as the client's assertion (RFC 7523), or a script
// account's password. Renewed with the refresh token when the endpoint gave one, else by the same
// grant again; the refresh token revoked at the end (RFC 7009) only where the endpoint's metadata
// names a revocation endpoint.













const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Each call to the identity provider: they answer in well under a second. */
const CALL_LIMIT_MS = 30_000;
/** Each look for the identity provider's metadata. */
const METADATA_LIMIT_MS = 5_000;
/** A token endpoint's refusal, or an answer that is not OAuth's: the message says what to fix. */
class TokenEndpointError extends errors/* ActionError */.lZ {
    transient;
    name = 'TokenEndpointError';
    constructor(message, 
    /** Worth another try: a 5xx or no answer. */
    transient) {
        super(message);
        this.transient = transient;
        this.loginRefused = !transient;
    }
    /** Not worth another try: the token endpoint refused the login, or gave no token this run can use (refusesLogin). */
    loginRefused;
}
class OAuthLogin {
    inputs;
    options;
    issuer = 'oauth';
    preflight = true;
    renewable = true;
    renewAfterMs = undefined;
    who;
    as;
    client;
    dispatcher;
    retrier;
    revocationEndpoint;
    /** The run's stop, which ends every call; none for the closing calls (see reroute). */
    stop;
    limitMs = CALL_LIMIT_MS;
    /** The refresh token was revoked at the endpoint (not merely left to expire). */
    revoked = false;
    saidNoRevocation = false;
    /** Rerouted for the closing calls: one attempt each, within their own short limit. */
    closing = false;
    /**
     * Where the client secret goes: in the body (client_secret_post) first, which most providers accept; a
     * client registered for HTTP Basic only (Okta's default) refuses that as invalid_client, so Basic is tried once.
     */
    secretIn = 'body';
    constructor(inputs, options) {
        this.inputs = inputs;
        this.options = options;
        const url = new URL(inputs.tokenUrl);
        this.as = { issuer: url.origin, token_endpoint: inputs.tokenUrl };
        // The library wants a client id; without client-id none is sent (auth() decides what goes in the body).
        this.client = { client_id: inputs.clientId ?? 'brcloud-deploy' };
        this.who = inputs.username ?? inputs.clientId ?? `GitHub's OIDC identity (audience ${inputs.oidcAudience ?? '?'})`;
        this.dispatcher = (0,dispatcher/* proxyAwareDispatcher */.U)(inputs.tokenUrl);
        this.stop = options.signal;
        this.retrier = (0,retry/* createRetrier */.SB)({
            attempts: options.attempts,
            baseDelayMs: 1_000,
            maxDelayMs: 10_000,
            maxTotalMs: 2 * 60_000,
            retryable: oauth_transient,
            signal: options.signal,
            until: phase/* phaseEndsAt */.Ti
        }, (level, m) => (level === 'warning' ? port/* warning */.$e(m) : port/* info */.pq(m)));
    }
    get refusedHint() {
        return (`The stack did not accept the token from ${this.inputs.tokenUrl}: check that it is issued for the stack's API (audience: ${this.inputs.audience ?? 'not set'}, ` +
            `scope: ${this.inputs.scope ?? 'not set'}) and that single sign-on is set up for this stack (ask Bloomreach support for the token endpoint and audience; see ${method/* SSO_DOCS_URL */.a}).`);
    }
    /**
     * The run's closing calls (a last look that renews a due token, the revocation) come after a cancel or the
     * watchdog stopped the run: from here on no call is ended by that stop, and each gets `limitMs`.
     */
    reroute(limitMs) {
        this.stop = undefined;
        this.limitMs = limitMs;
        this.closing = true;
    }
    async obtain() {
        const grant = this.inputs.grant;
        const what = grant === 'password'
            ? `the password grant for '${this.inputs.username ?? ''}'`
            : grant === 'client_assertion'
                ? "GitHub's OIDC token as the client's assertion"
                : `the client credentials of '${this.inputs.clientId ?? ''}'`;
        return this.call(`Getting a token from ${this.inputs.tokenUrl} with ${what}`, async (http) => {
            const params = this.extraParameters();
            if (grant === 'password') {
                params.set('username', this.inputs.username ?? '');
                params.set('password', this.inputs.password ?? '');
                const res = await build/* genericTokenEndpointRequest */.Nb(this.as, this.client, await this.auth(signalOf(http)), 'password', params, http);
                return build/* processGenericTokenEndpointResponse */.kU(this.as, this.client, await withoutIdToken(res));
            }
            const res = await build/* clientCredentialsGrantRequest */.H0(this.as, this.client, await this.auth(signalOf(http)), params, http);
            return build/* processClientCredentialsResponse */._T(this.as, this.client, await withoutIdToken(res));
        });
    }
    async refresh(_api, refreshToken) {
        return this.call(`Renewing the token at ${this.inputs.tokenUrl}`, async (http) => {
            const res = await build/* refreshTokenGrantRequest */.ur(this.as, this.client, await this.auth(signalOf(http)), refreshToken, {
                ...http,
                additionalParameters: this.extraParameters()
            });
            return build/* processRefreshTokenResponse */.Tv(this.as, this.client, await withoutIdToken(res));
        });
    }
    revokeNote = (none) => none ? `nothing to revoke: ${this.inputs.tokenUrl} gave no refresh token, and its access tokens expire by themselves` : undefined;
    /** The run's end: the refresh tokens revoked where the endpoint says how, and the connections closed. */
    async revoke(_api, refreshTokens, revoked = () => undefined) {
        let failed;
        try {
            for (const token of refreshTokens) {
                const why = await this.revokeAt(token);
                if (why !== undefined)
                    failed ??= why;
                else if (this.revoked)
                    revoked(token);
            }
            return failed;
        }
        finally {
            await this.dispatcher.close().catch(() => undefined);
        }
    }
    async revokeAt(refreshToken) {
        if (this.inputs.clientId === undefined) {
            // RFC 7009: the client that holds a token identifies itself to revoke it; without client-id there is none.
            port/* info */.pq(`Token: nothing revoked: revoking a refresh token needs the client it was issued to (client-id), and none is set; it expires by itself.`);
            return undefined;
        }
        const found = await this.findRevocationEndpoint();
        if ('failed' in found)
            return `finding where ${this.inputs.tokenUrl} revokes tokens: ${found.failed}`;
        if ('none' in found) {
            // Not a failure: the endpoint offers no way to revoke. Said once, quietly.
            if (this.saidNoRevocation)
                return undefined;
            this.saidNoRevocation = true;
            port/* info */.pq(`Token: nothing revoked: ${this.inputs.tokenUrl} names no revocation endpoint in its metadata, so this run's refresh token is left to expire by itself.`);
            return undefined;
        }
        const { endpoint } = found;
        const limit = this.limit();
        try {
            const res = await build/* revocationRequest */.Kz({ ...this.as, revocation_endpoint: endpoint }, this.client, await this.auth(limit.signal), refreshToken, {
                ...this.http(limit),
                additionalParameters: { token_type_hint: 'refresh_token' }
            });
            await build/* processRevocationResponse */.TP(res);
            this.revoked = true;
            port/* info */.pq(`Revoked this run's refresh token at ${endpoint}.`);
            return undefined;
        }
        catch (error) {
            return `revoking at ${endpoint}: ${(0,errors/* describeError */.Uc)(error)}`;
        }
        finally {
            limit.clear();
        }
    }
    /** audience and scope, sent with every grant when set. */
    extraParameters() {
        const params = new URLSearchParams();
        if (this.inputs.audience !== undefined)
            params.set('audience', this.inputs.audience);
        if (this.inputs.scope !== undefined)
            params.set('scope', this.inputs.scope);
        return params;
    }
    /** How the client authenticates: a secret (in the body, as most providers accept), GitHub's OIDC token as its assertion, or not at all. */
    async auth(signal) {
        if (this.inputs.grant === 'client_assertion') {
            const assertion = await this.gitHubToken(signal);
            const clientId = this.inputs.clientId;
            return (_as, _client, body) => {
                if (clientId !== undefined)
                    body.set('client_id', clientId);
                body.set('client_assertion_type', JWT_BEARER);
                body.set('client_assertion', assertion);
            };
        }
        if (this.inputs.clientSecret !== undefined) {
            return this.secretIn === 'body' ? build/* ClientSecretPost */.qm(this.inputs.clientSecret) : build/* ClientSecretBasic */.gH(this.inputs.clientSecret);
        }
        return this.inputs.clientId !== undefined ? build/* None */.NV() : (_as, _client, _body) => undefined;
    }
    /**
     * A fresh OIDC token from GitHub for each grant: they live minutes. Masked before anything could print it. Within
     * the call's limit (GitHub's own client has none). Without the runner's request URL the job lacks the permission
     * (a refusal); with it, a failure is GitHub's token service failing (worth another try).
     */
    async gitHubToken(signal) {
        const audience = this.inputs.oidcAudience ?? '';
        const permitted = Boolean(process.env.ACTIONS_ID_TOKEN_REQUEST_URL);
        try {
            const asked = (this.options.idToken ?? ((a) => port/* getIDToken */.V9(a)))(audience);
            const token = await (signal === undefined ? asked : (0,retry/* untilAborted */.Eu)(asked, signal));
            (0,secrets/* registerSecret */.cl)(token);
            return token;
        }
        catch (error) {
            if (this.stop?.aborted)
                throw error;
            throw new TokenEndpointError(permitted
                ? `GitHub's OIDC token service gave no token for audience '${audience}' (${(0,errors/* describeError */.Uc)(error)}).`
                : `GitHub gave no OIDC token for audience '${audience}' (${(0,errors/* describeError */.Uc)(error)}). ${(0,advice/* noOidcToken */.gN)()}`, permitted);
        }
    }
    /** One call's limit (never past the phase it is made in), joined with the run's stop while the run goes on. */
    limit() {
        return (0,time_limit/* timeLimit */.z)((0,phase/* phaseLimit */.VB)(this.limitMs), this.stop);
    }
    http(limit) {
        const url = new URL(this.inputs.tokenUrl);
        return {
            signal: limit.signal,
            [build/* customFetch */.A6]: (input, init) => httpFetch(input, { ...init, dispatcher: this.dispatcher }),
            // http only to this machine (the input rules refuse it elsewhere): the local emulator.
            ...(url.protocol === 'http:' && (0,address/* isLoopbackHost */.cW)(url.hostname) ? { [build/* allowInsecureRequests */.cm]: true } : {})
        };
    }
    /** One grant with retries of what may pass on another try; every token masked the moment it arrives. */
    async call(operation, grant) {
        const attempt = async () => {
            const limit = this.limit();
            try {
                return await grant(this.http(limit));
            }
            catch (error) {
                // The call's own limit, or no connection at all: the endpoint did not answer, which may pass.
                if (limit.expired())
                    throw new TokenEndpointError(`${operation}: no answer from ${this.inputs.tokenUrl} within ${(0,format/* formatDuration */.a3)((0,phase/* phaseLimit */.VB)(this.limitMs))}.`, true);
                if (!this.refusedSecretInBody(error))
                    throw this.explain(operation, error);
                this.secretIn = 'basic';
                port/* info */.pq(`${this.inputs.tokenUrl} refused the client secret in the request body; sending it with HTTP Basic authentication instead.`);
                try {
                    return await grant(this.http(limit));
                }
                catch (again) {
                    throw this.explain(operation, again);
                }
            }
            finally {
                limit.clear();
            }
        };
        const answer = this.closing ? await attempt() : await this.retrier.retrying(operation, attempt);
        (0,secrets/* registerSecret */.cl)(answer.access_token);
        (0,secrets/* registerSecret */.cl)(answer.refresh_token);
        // Where to revoke a refresh token is looked up now, so the end of a cancelled run (seconds) does not wait for it.
        if (answer.refresh_token && this.inputs.clientId !== undefined && !this.closing)
            void this.findRevocationEndpoint();
        if (answer.token_type.toLowerCase() !== 'bearer')
            throw new TokenEndpointError(`${operation}: the token is of type '${answer.token_type}', not a bearer token`, false);
        return { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresInSeconds: answer.expires_in };
    }
    refusedSecretInBody(error) {
        if (this.secretIn !== 'body' || this.inputs.clientSecret === undefined)
            return false;
        const code = error instanceof build/* ResponseBodyError */.uK ? error.error : error instanceof build/* WWWAuthenticateChallengeError */.m4 ? 'invalid_client' : undefined;
        return code === 'invalid_client';
    }
    /** What the token endpoint's answer means for the user. */
    explain(operation, error) {
        if (this.stop?.aborted)
            return error;
        if (error instanceof build/* ResponseBodyError */.uK) {
            const said = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
            // A 429 is the endpoint's rate limit, not a refusal of the login: worth another try, as an answer that is not OAuth's.
            return new TokenEndpointError(`${operation}: HTTP ${error.status} ${said}. ${this.advice(error.error)}`, error.status >= 500 || error.status === 429);
        }
        if (error instanceof build/* WWWAuthenticateChallengeError */.m4) {
            const code = error.cause.map((c) => c.parameters.error).find((e) => typeof e === 'string') ?? 'invalid_client';
            const both = this.secretIn === 'basic' ? ' (with the secret in the body, then with HTTP Basic)' : '';
            return new TokenEndpointError(`${operation}: HTTP ${error.status} ${code}${both}. ${this.advice(code)}`, false);
        }
        if (error instanceof TypeError && !(error instanceof build/* OperationProcessingError */.Hx)) {
            // fetch's "fetch failed": no connection (the cause names why).
            const cause = error.cause;
            return new TokenEndpointError(`${operation}: ${this.inputs.tokenUrl} could not be reached (${(0,errors/* describeError */.Uc)(cause ?? error)}).`, true);
        }
        const status = error.cause?.status;
        if (error instanceof build/* OperationProcessingError */.Hx && typeof status === 'number') {
            return new TokenEndpointError(`${operation}: HTTP ${status}, not an OAuth answer (${error.message}).`, status >= 500 || status === 429);
        }
        if (error instanceof build/* OperationProcessingError */.Hx)
            return new TokenEndpointError(`${operation}: ${error.message}.`, false);
        return error;
    }
    advice(code) {
        const grant = this.inputs.grant;
        if (code === 'invalid_client' && grant === 'client_assertion')
            return `The identity provider did not accept GitHub's OIDC token: check that it trusts this repository's tokens (issuer https://token.actions.githubusercontent.com, audience '${this.inputs.oidcAudience ?? ''}', the subject of this workflow) for client '${this.inputs.clientId ?? ''}'.`;
        if (code === 'invalid_client')
            return 'Check client-id and client-secret: the identity provider did not accept them.';
        if (code === 'invalid_grant' && grant === 'password')
            return 'Check username and password: the identity provider did not accept the script account (it must be allowed to log in without a browser).';
        if (code === 'invalid_scope' || code === 'invalid_target' || code === 'access_denied')
            return `Check audience and scope: ask your identity provider (or Bloomreach support) which the stack's API expects. See ${method/* SSO_DOCS_URL */.a}.`;
        if (code === 'unauthorized_client' || code === 'unsupported_grant_type')
            return `The client may not use this grant at the identity provider. See ${method/* SSO_DOCS_URL */.a}.`;
        return `See ${method/* SSO_DOCS_URL */.a}.`;
    }
    /**
     * The endpoint's metadata (RFC 8414 / OpenID discovery) at the token URL's path prefixes, asked at once within one
     * limit (the longest prefix that describes this token endpoint wins): the revocation endpoint where it names one,
     * 'none' where the metadata names none, or why it could not be read (not kept: the next look asks again).
     */
    findRevocationEndpoint() {
        this.revocationEndpoint ??= (async () => {
            const limit = (0,time_limit/* timeLimit */.z)(Math.min(METADATA_LIMIT_MS, this.limitMs));
            try {
                const answers = await Promise.all(metadataAddresses(this.inputs.tokenUrl).map(async (candidate) => {
                    try {
                        const res = await httpFetch(candidate, { dispatcher: this.dispatcher, signal: limit.signal });
                        if (!res.ok)
                            return { read: true };
                        const meta = (await res.json());
                        if (meta.token_endpoint !== this.inputs.tokenUrl)
                            return { read: true };
                        return { read: true, endpoint: typeof meta.revocation_endpoint === 'string' ? meta.revocation_endpoint : undefined, found: true };
                    }
                    catch (error) {
                        return { read: false, why: (0,errors/* describeError */.Uc)(error) };
                    }
                }));
                const found = answers.find((a) => 'found' in a);
                if (found !== undefined && 'found' in found)
                    return found.endpoint === undefined ? { none: true } : { endpoint: found.endpoint };
                const unread = answers.find((a) => !a.read);
                if (unread !== undefined && 'why' in unread) {
                    this.revocationEndpoint = undefined;
                    return { failed: `its metadata could not be read (${unread.why})` };
                }
                return { none: true };
            }
            finally {
                limit.clear();
            }
        })();
        return this.revocationEndpoint;
    }
}
/**
 * A token answer without its OpenID Connect ID token (a scope with openid asks for one), masked first. The action uses
 * the access token alone; the library would check the ID token's issuer against the token URL's origin, the only issuer
 * it can know here, and refuse the login of a provider whose issuer has a path (Keycloak's realms, Okta's authorization
 * servers, Entra's tenants) or a trailing slash (Auth0).
 */
async function withoutIdToken(res) {
    if (!res.ok)
        return res;
    const text = await res.text();
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        body = undefined;
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    if (body === null || typeof body !== 'object' || !('id_token' in body))
        return new Response(text, { status: res.status, statusText: res.statusText, headers });
    const { id_token: idToken, ...rest } = body;
    if (typeof idToken === 'string')
        (0,secrets/* registerSecret */.cl)(idToken);
    return new Response(JSON.stringify(rest), { status: res.status, statusText: res.statusText, headers });
}
/** Where an issuer's metadata may be, for each prefix of the token URL's path (longest first), at most four. */
function metadataAddresses(tokenUrl) {
    const url = new URL(tokenUrl);
    const segments = url.pathname.split('/').filter((s) => s !== '');
    const out = [];
    for (let keep = segments.length - 1; keep >= 0 && out.length < 4; keep--) {
        const prefix = segments.slice(0, keep).join('/');
        out.push(`${url.origin}/${prefix ? `${prefix}/` : ''}.well-known/openid-configuration`);
    }
    return out;
}
function oauth_transient(error) {
    if (error instanceof TokenEndpointError)
        return error.transient;
    if (error instanceof errors/* ActionError */.lZ)
        return false;
    // No answer at all (a reset, a timeout): worth another try.
    return error instanceof Error && !(error instanceof build/* OperationProcessingError */.Hx);
}
/** The abort signal of a call's options (oauth4webapi also takes a function that makes one: never ours). */
function signalOf(http) {
    return typeof http.signal === 'function' ? undefined : http.signal;
}


/***/ })

};
