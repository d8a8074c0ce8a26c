export const id = 962;
export const ids = [962];
export const modules = {

/***/ 1962:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runPost: () => (/* binding */ runPost)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var core = __webpack_require__(3360);
// EXTERNAL MODULE: ./src/cloud/api.ts
var cloud_api = __webpack_require__(9129);
// EXTERNAL MODULE: ./src/cloud/login/password.ts
var login_password = __webpack_require__(2554);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
;// CONCATENATED MODULE: ./src/github/final-status.ts
/**
 * 'error', not 'inactive': the deploy's outcome is unknown, and inactive is what GitHub shows for a
 * deployment a later one replaced, which would hide that this one never finished. Throws on a failure.
 */
async function setErrorStatus(token, saved, description) {
    const github = await __webpack_require__.e(/* import() */ 413).then(__webpack_require__.bind(__webpack_require__, 2413));
    const octokit = github.getOctokit(token);
    await octokit.rest.repos.createDeploymentStatus({
        owner: saved.owner,
        repo: saved.repo,
        deployment_id: saved.id,
        state: 'error',
        description: description.slice(0, 140),
        ...(saved.logUrl ? { log_url: saved.logUrl } : {}),
        auto_inactive: false
    });
}

// EXTERNAL MODULE: ./src/http/transport.ts + 1 modules
var http_transport = __webpack_require__(5848);
// EXTERNAL MODULE: ./src/run-state.ts
var run_state = __webpack_require__(518);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
;// CONCATENATED MODULE: ./src/post.ts
// The post step (action.yml runs.post, post-if: always()): it runs after the job's steps, also after a
// cancel or a kill, and finishes only what the main step could not: the refresh token it did not
// revoke, the GitHub Deployment it left in progress, and a word in the summary when it never reported.
// It never acts on the environment (no deploy, no rollback), and a failure here is a warning, never a
// failed step.








/** One attempt, a short limit: a cancelled job's post step must not hang. */
const REVOKE_LIMIT_MS = 5_000;
/** Tells the platform's logs which step called. */
const USER_AGENT = 'brcloud-deploy (GitHub Action, post step)';
async function runPost(read = run_state/* readState */.un) {
    try {
        const state = read();
        // A new process: the runner's mask is per job, but our own redact() knows nothing yet.
        (0,secrets/* registerSecret */.c)(state.refreshToken);
        const done = [];
        const revoked = await revokeLeftToken(state);
        if (revoked)
            done.push(revoked);
        const finished = await finishGitHubDeployment(state);
        if (finished)
            done.push(finished);
        if (!state.reported)
            await writeSummary(done);
    }
    catch (error) {
        core/* warning */.$e(`The post step could not finish (${(0,secrets/* redact */.E)((0,errors/* describeError */.Uc)(error))}).`);
    }
}
/** Revokes the refresh token the main step left valid; what was done, for the summary. */
async function revokeLeftToken(state) {
    const { apiUrl, refreshToken } = state;
    if (state.revoked || !apiUrl || !refreshToken)
        return undefined;
    const transport = new http_transport/* HttpTransport */.G(apiUrl, { userAgent: USER_AGENT, timeoutMs: REVOKE_LIMIT_MS });
    const api = new cloud_api/* CloudApi */.q(transport, { retry: { attempts: 1 } });
    try {
        await (0,login_password/* revokeRefreshToken */.ln)(api, refreshToken);
        core/* info */.pq("Revoked the main step's refresh token, which it had left valid.");
        return "revoked this run's refresh token, which the main step had left valid";
    }
    catch (error) {
        if (error instanceof errors/* ServiceError */._7 && error.status === 401) {
            core/* info */.pq('The platform refused the refresh token (HTTP 401): it is no longer valid, nothing to revoke.');
            return undefined;
        }
        core/* warning */.$e(`Could not revoke this run's refresh token (${(0,secrets/* redact */.E)((0,errors/* describeError */.Uc)(error))}); it expires by itself within 24 hours.`);
        return undefined;
    }
    finally {
        await transport.close().catch(() => undefined);
    }
}
/** Gives a GitHub Deployment the main step started, and never finalized, the status 'error'. */
async function finishGitHubDeployment(state) {
    const saved = state.githubDeployment;
    if (!saved || state.githubDeploymentFinal)
        return undefined;
    const token = core/* getInput */.V4('github-token');
    if (!token) {
        core/* warning */.$e(`GitHub Deployment ${saved.id} stays in progress: the post step has no github-token.`);
        return undefined;
    }
    core/* setSecret */.Pq(token);
    const description = state.reported
        ? 'The deploy step ended without a final status; see the workflow run'
        : 'The main step was stopped before it reported; see the workflow run';
    try {
        await setErrorStatus(token, saved, description);
        core/* info */.pq(`Set GitHub Deployment ${saved.id} to error: ${description}.`);
        return `set GitHub Deployment ${saved.id} to error (it was left in progress)`;
    }
    catch (error) {
        core/* warning */.$e(`Could not set GitHub Deployment ${saved.id} to error (${(0,secrets/* redact */.E)((0,errors/* describeError */.Uc)(error))}).`);
        return undefined;
    }
}
/** The main step never wrote its report: say so, and list only what the post step did. */
async function writeSummary(done) {
    // Outside a runner there is no summary file, as in report.ts.
    if (!process.env.GITHUB_STEP_SUMMARY)
        return;
    const items = done.length > 0 ? done.map((line) => `- ${line}`) : ['- nothing: it had nothing left to finish, or could not (see its warnings)'];
    const text = [
        '### Bloomreach Cloud deploy: post step',
        '',
        'The main step was stopped before it wrote its report; what the post step could do:',
        '',
        ...items,
        '',
        'The post step never deploys or rolls back: check the environment in the console.',
        ''
    ].join('\n');
    await core/* summary */.z.addRaw(text).write();
}


/***/ })

};
