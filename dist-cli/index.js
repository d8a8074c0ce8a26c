#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 227:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   W: () => (/* binding */ INPUT_DEFAULTS)
/* harmony export */ });
/* unused harmony export OUTPUT_NAMES */
// Generated from action.yml by `npm run docs`; `npm run docs -- --check` (CI) fails when it is stale. Do not edit.
/** Every input with the default action.yml declares ('' when none). */
const INPUT_DEFAULTS = {
    'stack': '',
    'console-url': '',
    'platform-domain': 'bloomreach.cloud',
    'api-url': '',
    'username': '',
    'password': '',
    'token-url': '',
    'client-id': '',
    'client-secret': '',
    'oidc-audience': '',
    'audience': '',
    'scope': '',
    'access-token': '',
    'distribution': '',
    'distribution-id': '',
    'from-environment': '',
    'distribution-name': '',
    'compression-level': '6',
    'build-command': '',
    'environment': '',
    'environment-url': '',
    'config-files': '',
    'force-deploy': 'false',
    'follow-deploy': 'true',
    'deploy-timeout-minutes': '15',
    'health-url': '',
    'health-expect': '',
    'health-timeout-minutes': '10',
    'rollback': 'false',
    'rollback-on-search': 'false',
    'github-token': '',
    'allow-older-commit': 'false',
    'allow-unchecked-order': 'false',
    'deploy-strategy': 'stopstart',
    'max-distribution-mb': '650',
    'max-distributions': '',
    'max-attempts': '4',
    'request-timeout-seconds': '60',
    'total-timeout-minutes': '',
    'search-query': '',
    'search-type': 'keyword',
    'search-account-id': '',
    'search-auth-key': '',
    'search-domain-key': '',
    'search-environment': 'production',
    'search-base-url': '',
    'search-fields': 'pid,title,url',
    'search-rows': '10',
    'search-min-results': '1',
    'search-timeout-seconds': '5',
    'search-page-url': '',
    'search-uid': '',
    'search-wait-seconds': '0',
    'dry-run': 'false'
};
/** Every output action.yml declares. */
const OUTPUT_NAMES = (/* unused pure expression or super */ null && (['cloud-api-url', 'distribution-id', 'distribution-name', 'distribution-size', 'distribution-sha256', 'environment-id', 'pruned-distributions', 'distribution-reused', 'previous-distribution-id', 'deployed', 'rolled-back', 'release-state', 'environment-distribution-id', 'running-commit', 'order', 'search-num-found', 'search-latency-ms', 'search-request-id']));


/***/ }),

/***/ 7103:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Gd: () => (/* binding */ sameDistributionName),
/* harmony export */   YP: () => (/* binding */ commitInName),
/* harmony export */   Z2: () => (/* binding */ defaultName),
/* harmony export */   xT: () => (/* binding */ distributionNameProblem)
/* harmony export */ });
// The one rule for the name a distribution is stored under, whether it comes from distribution-name
// or is the archive's own file name. The name travels in the multipart Content-Disposition, where a
// quote, a backslash or a line break is escaped or dropped (so the platform would store another name
// than the one we compare with after a lost answer), and it becomes a file on whatever machine
// downloads the distribution again, so what Windows cannot name is refused too.
/** Characters no file name may hold on Windows, and that the Content-Disposition header would alter. */
const FORBIDDEN = /[<>:"/\\|?*\p{Cc}]/u;
/** Windows' reserved device names, also with an extension (CON.tar.gz is the device CON). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
const MAX_BYTES = 255;
/** Why `name` cannot be a distribution's name, or undefined when it can. */
function distributionNameProblem(name) {
    if (name === '')
        return 'it is empty';
    const bad = FORBIDDEN.exec(name)?.[0];
    if (bad !== undefined) {
        const shown = /\p{Cc}/u.test(bad) ? `a control character (U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})` : `'${bad}'`;
        return `it contains ${shown}: a distribution name is a plain file name, without slashes, quotes, control characters or any of < > : " / \\ | ? *`;
    }
    if (RESERVED.test(name))
        return `'${name.split('.')[0] ?? name}' is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`;
    if (/[. ]$/.test(name))
        return 'it ends with a dot or a space';
    if (Buffer.byteLength(name) > MAX_BYTES)
        return `it is ${Buffer.byteLength(name)} bytes long (at most ${MAX_BYTES})`;
    if (!/\.(tar\.gz|tgz)$/i.test(name))
        return 'it must end with .tar.gz or .tgz';
    return undefined;
}
/** The platform's name and ours are the same distribution name (a platform may give it back percent-encoded). */
function sameDistributionName(stored, ours) {
    if (stored === undefined)
        return false;
    if (stored === ours)
        return true;
    try {
        return decodeURIComponent(stored) === ours;
    }
    catch {
        return false;
    }
}
/** A name part made safe: what is not a letter, digit, dot, underscore or hyphen becomes a hyphen. */
function safePart(s) {
    return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
}
/** The default upload name, `<repository>-<short sha>-distribution.tar.gz`: where the distribution came from, so the platform's list tells. */
function defaultName(repository, sha, fallback) {
    const name = safePart(repository) || safePart(fallback) || 'distribution';
    const short = safePart(sha.slice(0, 7)) || 'local';
    return `${name}-${short}-distribution.tar.gz`;
}
/** The commit a default name carries, when it is a name this repository's runs give (see defaultName). */
function commitInName(name, repository) {
    const match = /^(.+)-([0-9a-f]{7,40})-distribution\.tar\.gz$/i.exec(name ?? '');
    if (match === null || repository === '' || match[1] !== safePart(repository))
        return undefined;
    return match[2]?.toLowerCase();
}


/***/ }),

/***/ 1212:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   l: () => (/* binding */ jwtExpiry),
/* harmony export */   z: () => (/* binding */ jwtLifetimeMs)
/* harmony export */ });
// What a token says of its own life, when it is a JWT: read, never verified (the issuer verifies it).
// The session renews by it; the inputs check a ready token's `exp` against the run's budgets.
/** The `iat` and `exp` claims (seconds) of a JWT, or undefined when the token is not a readable JWT. */
function lifeClaims(token) {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts[1])
        return undefined;
    try {
        const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
        return { iat: typeof claims.iat === 'number' ? claims.iat : undefined, exp: typeof claims.exp === 'number' ? claims.exp : undefined };
    }
    catch {
        return undefined;
    }
}
/** Milliseconds between `iat` and `exp` of a JWT, or undefined when the token does not say. */
function jwtLifetimeMs(token) {
    const c = lifeClaims(token);
    if (c?.iat === undefined || c.exp === undefined || c.exp <= c.iat)
        return undefined;
    return (c.exp - c.iat) * 1000;
}
/** `exp` of a JWT in milliseconds, or undefined when the token does not say. */
function jwtExpiry(token) {
    const exp = lifeClaims(token)?.exp;
    return exp === undefined ? undefined : exp * 1000;
}


/***/ }),

/***/ 9392:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Fd: () => (/* binding */ describeLook),
/* harmony export */   Zx: () => (/* binding */ switching),
/* harmony export */   s: () => (/* binding */ sameId)
/* harmony export */ });
/** Status words that say a deploy is still going on. The platform documents no status field: this only adds evidence. */
const SWITCHING = /deploying|in[ _-]?progress|switching|updating|restarting|starting|stopping|rolling/i;
/** Whether the status field says the environment is busy switching; undefined when the platform gave no status. */
function switching(look) {
    return look.status === undefined ? undefined : SWITCHING.test(look.status);
}
/** "reports distribution X (status: s)", as the log and the summary say it. */
function describeLook(look) {
    const runs = look.distributionId ? `reports distribution ${look.distributionId}` : 'reports no distribution';
    return look.status ? `${runs} (status: ${look.status})` : runs;
}
/**
 * Whether two distribution ids name the same distribution. Ids are uuids, which the platform may write in
 * either letter case (one reading the public sources do not settle): compared without case.
 */
function sameId(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}


/***/ }),

/***/ 5222:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  sG: () => (/* binding */ DeployOrder),
  tM: () => (/* binding */ OrderRefused),
  MX: () => (/* binding */ evidence)
});

// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: ./src/port.ts
var port = __nccwpck_require__(8676);
// EXTERNAL MODULE: ./src/github/client.ts
var client = __nccwpck_require__(6584);
// EXTERNAL MODULE: ./src/cloud/distribution-name.ts
var distribution_name = __nccwpck_require__(7103);
;// CONCATENATED MODULE: ./src/github/evidence.ts
// Which commit a distribution was built from, with the evidence for it: a GitHub Deployment of this
// repository that recorded the distribution's id in its payload (this action writes it there), or
// else the distribution's own name when it is the default name, which carries the commit.

/** States of a Deployment still under way. */
const UNDER_WAY = new Set(['in_progress', 'queued', 'pending']);
/** The same distribution id (the platform's ids are hex; a platform may change their case). */
function sameDistribution(a, b) {
    return a !== undefined && a.toLowerCase() === b.toLowerCase();
}
/** An address without a trailing slash and in lower case: the stack a payload names. */
function stackKey(url) {
    return url.replace(/\/+$/, '').toLowerCase();
}
/** Reads this repository's GitHub Deployments for one stack, once per look (a new look lists again). */
class DeploymentHistory {
    github;
    apiUrl;
    cache = new Map();
    constructor(github, apiUrl) {
        this.github = github;
        this.apiUrl = apiUrl;
    }
    /** A fresh read: another job may have recorded a deploy since the last one. */
    refresh() {
        this.cache.clear();
    }
    /** Deployments of one environment (or all), newest first, that belong to this stack (a payload naming no stack may). */
    async deployments(environment) {
        const key = environment ?? '\u0000all';
        let list = this.cache.get(key);
        if (list === undefined) {
            list = this.github.listDeployments(environment);
            this.cache.set(key, list);
            list.catch(() => this.cache.delete(key));
        }
        const mine = stackKey(this.apiUrl);
        return (await list).filter((d) => d.payload.apiUrl === undefined || stackKey(d.payload.apiUrl) === mine);
    }
    /**
     * The commit of distribution `id`: from the newest Deployment that recorded it (this environment's
     * first), else from its name (`facts`, asked only then: a call to the platform).
     */
    async commitOf(id, environment, facts) {
        // A Deployment that says its commit is unknown (a promotion of a distribution no evidence named) is no evidence of one.
        const names = (d) => sameDistribution(d.payload.distributionId, id) && d.payload.commit !== 'unknown';
        const here = environment === undefined ? [] : await this.deployments(environment);
        let found = here.find(names);
        found ??= (await this.deployments()).find(names);
        if (found) {
            const status = await this.github.latestStatus(found.id).catch(() => undefined);
            return {
                sha: found.sha,
                from: 'deployment',
                deployment: { id: found.id, environment: found.environment, by: found.creator, runUrl: status?.logUrl, state: status?.state }
            };
        }
        const name = (await facts()).name;
        const sha = (0,distribution_name/* commitInName */.YP)(name, this.github.repo.repo);
        return sha === undefined ? undefined : { sha, from: 'name', name };
    }
    /**
     * The newest Deployment of this environment that recorded another distribution than `runningId`,
     * when none recorded `runningId`: the environment was then changed outside this action.
     */
    async recordedOther(environment, runningId) {
        const here = (await this.deployments(environment)).filter((d) => d.payload.distributionId !== undefined);
        if (here.some((d) => sameDistribution(d.payload.distributionId, runningId)))
            return undefined;
        return here[0];
    }
    /** A Deployment of this environment still under way (not `exceptId`), with the run that makes it: who holds the environment. */
    async underWay(environment, exceptId) {
        for (const d of (await this.deployments(environment)).slice(0, 5)) {
            if (d.id === exceptId)
                continue;
            const status = await this.github.latestStatus(d.id).catch(() => undefined);
            if (status && UNDER_WAY.has(status.state)) {
                return {
                    sha: d.sha,
                    from: 'deployment',
                    deployment: { id: d.id, environment: d.environment, by: d.creator, runUrl: status.logUrl, state: status.state }
                };
            }
        }
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/deploy/look.ts
var deploy_look = __nccwpck_require__(9392);
;// CONCATENATED MODULE: ./src/deploy/order.ts





/** The deploy was refused: the environment runs a newer commit, or the order could not be checked. Nothing was deployed. */
class OrderRefused extends errors/* ActionError */.lZ {
    name = 'OrderRefused';
}
const PERMISSIONS = 'deployments: read and contents: read';
class DeployOrder {
    o;
    history;
    ownDeployment;
    known = new Map();
    /** The last check: its running distribution tells whether a look after a wait needs another. */
    last;
    constructor(o) {
        this.o = o;
        this.history = o.github ? new DeploymentHistory(o.github, o.apiUrl) : undefined;
    }
    /** This run's own GitHub Deployment: never named as the one holding the environment. */
    noteOwnDeployment(id) {
        this.ownDeployment = id;
    }
    /** The commit this run deploys: a promoted distribution's, or this run's own. */
    async ours() {
        if (this.o.promoted === undefined)
            return this.o.github?.sha ? { sha: this.o.github.sha, from: 'run' } : undefined;
        const id = this.o.promoted;
        return this.history?.commitOf(id, undefined, () => this.facts(id));
    }
    /** Checks the order against what the environment runs; throws OrderRefused when ours is older, or GitHub cannot be read (unless allowed). */
    async check(runningId, recheck = false) {
        const evaluated = { ...(await this.evaluate(runningId)), ...(recheck && { recheck }) };
        const refused = (evaluated.order === 'behind' && !this.o.allowOlder) || (evaluated.failed === true && !this.o.allowUnchecked);
        const check = refused ? { ...evaluated, refused: true } : evaluated;
        this.last = check;
        this.o.record(check);
        this.tell(check);
        if (check.refused)
            throw new OrderRefused(this.refusal(check));
        return check;
    }
    /** After a wait: the environment may run another distribution now (another job's): checked again before our request. */
    async recheck(look) {
        const last = this.last;
        if (last === undefined || look.distributionId === undefined || (0,deploy_look/* sameId */.s)(look.distributionId, last.runningDistributionId))
            return;
        this.o.log(`'${this.o.environment}' now runs ${look.distributionId}, not ${last.runningDistributionId ?? 'nothing'}: checking the deploy order again.`);
        await this.check(look.distributionId, true);
    }
    /** Who holds the busy environment: a GitHub Deployment under way (with its run), or the distribution it reports and who uploaded it. */
    async holder(look) {
        const parts = [];
        try {
            const underWay = await this.history?.underWay(this.o.environment, this.ownDeployment);
            if (underWay?.deployment) {
                parts.push(`GitHub Deployment ${underWay.deployment.id} of commit ${(0,client/* short */.h0)(underWay.sha)} is ${underWay.deployment.state ?? 'under way'} (${madeBy(underWay)})`);
            }
        }
        catch {
            // Naming the holder is a courtesy: a failed read leaves it to the platform's facts.
        }
        if (look.distributionId !== undefined) {
            const facts = await this.facts(look.distributionId);
            const by = uploadedBy(facts);
            if (by !== undefined)
                parts.push(`Distribution ${look.distributionId} was ${by}`);
        }
        return parts.length > 0 ? parts.join('; ') : undefined;
    }
    async evaluate(runningId) {
        const base = { runningDistributionId: runningId, running: undefined, ours: undefined, repoUrl: this.o.github?.repoUrl };
        const history = this.history;
        if (history === undefined)
            return { ...base, order: 'unknown', why: `github-token is not set (the check needs a token with ${PERMISSIONS})` };
        history.refresh();
        this.known.clear();
        try {
            const ours = await this.ours();
            if (ours === undefined)
                return { ...base, order: 'unknown', why: this.noCommitOfOurs() };
            if (runningId === undefined)
                return { ...base, ours, order: 'unknown', why: `'${this.o.environment}' runs no distribution, so there is no commit to compare with` };
            const facts = () => this.facts(runningId);
            const running = await history.commitOf(runningId, this.o.environment, facts);
            const outside = await this.outside(history, runningId, facts);
            if (running === undefined) {
                const why = `no GitHub Deployment of ${history.github.repo.owner}/${history.github.repo.repo} recorded distribution ${runningId}, which '${this.o.environment}' runs, and its name carries no commit of this repository`;
                return { ...base, ours, outside, order: 'unknown', why };
            }
            if (sameCommit(running.sha, ours.sha))
                return { ...base, ours, running, outside, order: 'identical' };
            const comparison = await history.github.compare(running.sha, ours.sha);
            return { ...base, ours, running, outside, comparison, order: comparison.status };
        }
        catch (error) {
            // The run's stop (a cancel, the watchdog), or a bug: not GitHub's failure.
            if (!(error instanceof client/* GitHubCallFailed */.LW))
                throw error;
            // A commit GitHub does not know (a force-push removed it, or another repository's) is missing evidence, not a failure.
            if (error.failure === 'not-found' && error.call.startsWith('Comparing ')) {
                return {
                    ...base,
                    order: 'unknown',
                    why: `${error.message}: GitHub does not know one of the two commits (a force-push may have removed it), so they cannot be compared`
                };
            }
            return { ...base, order: 'unknown', failed: true, why: `${error.message}; ${gitHubAdvice(error)}` };
        }
    }
    /** The platform's facts of a distribution (its name, who uploaded it), asked once per check; only the id when it cannot say. */
    facts(id) {
        let known = this.known.get(id);
        if (known === undefined) {
            known = this.o.client
                .getDistribution(id)
                .catch(() => undefined)
                .then((d) => ({ id, name: d?.name, createdBy: d?.createdBy, createdAt: d?.createdAt }));
            this.known.set(id, known);
        }
        return known;
    }
    noCommitOfOurs() {
        if (this.o.promoted === undefined)
            return `this run has no commit (${port/* runContext */.pO().noCommit})`;
        return `no GitHub Deployment of this repository recorded distribution ${this.o.promoted}, and its name carries no commit of this repository`;
    }
    /** The environment runs what no Deployment of it recorded, while others were: it was changed outside this action. */
    async outside(history, runningId, facts) {
        const other = await history.recordedOther(this.o.environment, runningId);
        if (other === undefined)
            return undefined;
        return (`'${this.o.environment}' runs ${runningId}${uploaded(await facts())}, which no GitHub Deployment of this repository recorded for '${this.o.environment}' ` +
            `(the last one, ${other.id}, recorded ${other.payload.distributionId ?? '?'} of commit ${(0,client/* short */.h0)(other.sha)}): it was deployed outside this action ` +
            `(from Mission Control, or from another repository)`);
    }
    /** Says what the check found, once: an info line, a notice for another branch, a warning for a failed check or an older commit allowed. */
    tell(check) {
        const env = `'${this.o.environment}'`;
        if (check.outside !== undefined)
            this.o.notice(`${check.outside}.`);
        const running = check.running;
        const ours = check.ours;
        if (check.order === 'unknown') {
            const line = `Deploy order not checked: ${check.why ?? 'no evidence'}.`;
            if (check.failed && check.refused)
                this.o.log(line);
            else if (check.failed)
                this.o.warn(`${line} The deploy goes on (allow-unchecked-order: true).`);
            else
                this.o.log(line);
            return;
        }
        if (running === undefined || ours === undefined)
            return;
        const pair = `commit ${(0,client/* short */.h0)(ours.sha)} (${evidence(ours)}) and ${(0,client/* short */.h0)(running.sha)}, which ${env} runs (${evidence(running)})`;
        if (check.order === 'identical')
            this.o.log(`Deploy order: ${pair} are the same commit.`);
        else if (check.order === 'ahead')
            this.o.log(`Deploy order: ${pair}: ours is newer by ${check.comparison?.aheadBy ?? '?'} commit(s).`);
        else if (check.order === 'diverged')
            this.o.notice(`Deploy order: ${pair} are on different branches (ours is ${check.comparison?.aheadBy ?? '?'} ahead and ${check.comparison?.behindBy ?? '?'} behind): deploying ours replaces it.`);
        else if (this.o.allowOlder)
            this.o.warn(`Deploying an older commit on purpose (allow-older-commit: true): ${pair}; ours is ${check.comparison?.behindBy ?? '?'} commit(s) behind.`);
    }
    refusal(check) {
        const running = check.running;
        const ours = check.ours;
        const would = this.o.dryRun ? 'A deploy would be refused' : 'Refused';
        const nothing = check.recheck ? `so ${this.o.promoted ?? 'it'} was not deployed` : 'so nothing was changed';
        if (check.order === 'unknown') {
            return (`${would}: the deploy order on '${this.o.environment}' could not be checked: ${check.why ?? 'GitHub failed'}. ` +
                `github-token asks for the check, and it cannot be made, ${nothing}. To deploy while GitHub cannot be read, set allow-unchecked-order: true.`);
        }
        return (`${would}: commit ${(0,client/* short */.h0)(ours?.sha ?? '?')} is older than ${(0,client/* short */.h0)(running?.sha ?? '?')}, which '${this.o.environment}' runs ` +
            `(${running ? evidence(running) : '?'}; ${check.comparison?.behindBy ?? '?'} commit(s) newer). Deploying it would replace a newer release, ${nothing}. ` +
            `To go back to an older release on purpose, set allow-older-commit: true (with distribution-id or from-environment to restore a release already on the stack without a rebuild).`);
    }
}
/** What to do about a GitHub call that failed, by how it failed. */
function gitHubAdvice(error) {
    switch (error.failure) {
        case 'unreachable':
            return "GitHub's API did not answer: check the runner's network (and its proxy, when one is set) and githubstatus.com";
        case 'bad-token':
            return 'GitHub refused github-token (401): pass a valid token of this repository, e.g. github-token: ${{ github.token }}';
        case 'forbidden':
            return `github-token lacks a permission (403): give the job permissions with deployments: write and contents: read (the check needs ${PERMISSIONS})`;
        case 'not-found':
            return 'GitHub does not show this repository to github-token (404): use a token of this repository';
        default:
            return 'GitHub failed; run again later';
    }
}
/** One commit, full or abbreviated, is the other. */
function sameCommit(a, b) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x.startsWith(y) || y.startsWith(x);
}
/** Where a commit was learned from, in words. */
function evidence(c) {
    if (c.from === 'run')
        return "this run's commit";
    if (c.from === 'name')
        return `from the distribution's name ${c.name ?? ''}`.trim();
    return `GitHub Deployment ${c.deployment?.id ?? '?'}, ${madeBy(c)}`;
}
function madeBy(c) {
    const d = c.deployment;
    const by = d?.by ? `by ${d.by}` : 'by someone';
    return d?.runUrl ? `${by} in ${d.runUrl}` : by;
}
/** Who uploaded a distribution, and when, as the platform says; undefined when it does not say. */
function uploadedBy(facts) {
    if (facts.createdBy === undefined)
        return undefined;
    return `uploaded by ${facts.createdBy}${facts.createdAt ? ` at ${facts.createdAt}` : ''}`;
}
function uploaded(facts) {
    const by = uploadedBy(facts);
    return by === undefined ? '' : `, ${by}`;
}


/***/ }),

/***/ 4535:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   H$: () => (/* binding */ nowRuns),
/* harmony export */   ay: () => (/* binding */ whereItStands),
/* harmony export */   uu: () => (/* binding */ releaseFailure)
/* harmony export */ });
/* harmony import */ var _format_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6264);
/* harmony import */ var _look_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(9392);
/* harmony import */ var _release_state_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(350);
// What the step says about the environment when it ends, derived from the release's states and the
// last look alone: what was requested, what was rolled back, what the environment runs now. Never a
// claim that was not observed.



/** "'production' reports distribution X (status: running) at the end of the run", or why it could not be looked at. */
function nowRuns(result) {
    const look = result.finalLook;
    const env = result.environmentName;
    if (look === undefined || env === undefined)
        return undefined;
    if ('error' in look)
        return `What '${env}' runs now could not be looked at (${look.error}): check it in the console.`;
    return `At the end of the run, '${env}' ${(0,_look_js__WEBPACK_IMPORTED_MODULE_1__/* .describeLook */ .Fd)(look)}.`;
}
/** When a state was entered, after the deploy request. */
function when(release, at) {
    const requested = (0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'requested') ?? release.transitions[0];
    return requested === undefined ? '' : ` (seen ${(0,_format_js__WEBPACK_IMPORTED_MODULE_2__/* .formatDuration */ .a3)(at - requested.at)} after the deploy request)`;
}
/** What happened to the rollback, in one sentence; undefined when none was asked for. */
function rollbackText(release, rollbackOn, searchRollsBack) {
    const env = `'${release.environment}'`;
    const failure = release.failure;
    if (failure === undefined)
        return '';
    // Refused before its deploy call (busy all along, or an older commit after a wait): nothing of ours to stay or roll back.
    if (failure.kind === 'busy' || failure.kind === 'older')
        return `Nothing of this run was deployed to ${env}.`;
    if (failure.kind === 'unconfirmed' && release.rollbackTo === undefined && release.rollbackNotSent === undefined) {
        return rollbackOn ? `No rollback was sent: ${env} did not show this run's release, and a rollback is sent only over it.` : '';
    }
    if (failure.kind === 'search' && rollbackOn && !searchRollsBack) {
        return `The search service is a separate system, so the release was not rolled back (set rollback-on-search: true to roll back on a failing search check).`;
    }
    if (!rollbackOn) {
        const stays = failure.kind === 'not-applied' ? `The deploy of ${release.distributionId} may still land` : `${release.distributionId} stays deployed`;
        return `${stays}: rollback is off (set rollback: true to deploy the previous distribution back when a check fails).`;
    }
    const to = release.rollbackTo;
    if (to === undefined) {
        return `Cannot roll back: ${env} reported no other distribution before this deploy${release.previous === release.distributionId ? ' than this one' : ''}, so there is nothing to go back to.`;
    }
    const healthy = (0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-healthy');
    const applied = (0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-applied');
    const failed = (0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-failed');
    const kept = `${release.distributionId} stays on the stack for inspection.`;
    if (healthy && applied)
        return `Rolled back: ${env} runs the previous distribution ${to} again${when(release, applied.at)}, and the site answers. ${kept}`;
    if (applied && failed)
        return `Rolled back: ${env} reports the previous distribution ${to} again${when(release, applied.at)}, but its site does not answer either: ${failed.evidence}`;
    if (release.rollbackUnconfirmed !== undefined)
        return `The rollback to ${to} may have been carried out: ${release.rollbackUnconfirmed}; it was not seen applied.`;
    if (failed)
        return `The rollback to ${to} failed: ${failed.evidence}`;
    if (applied)
        return `Rolled back: ${env} reports the previous distribution ${to} again${when(release, applied.at)}; the site was not checked (no health-url). ${kept}`;
    if (release.rollbackNotSeen !== undefined)
        return `A rollback to ${to} was requested; ${release.rollbackNotSeen}.`;
    if ((0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-requested'))
        return `A rollback to ${to} was requested, but it was not seen applied.`;
    if (release.rollbackRefused !== undefined)
        return `The rollback to ${to} was not carried out: ${release.rollbackRefused}.`;
    if (release.rollbackNotSent !== undefined)
        return `No rollback was sent: ${release.rollbackNotSent}.`;
    return `No rollback was sent to ${to}: the run stopped before it could look at ${env}.`;
}
/** The step's failure message when the release did not pass: the cause, the rollback, what runs now. */
function releaseFailure(result, cause, rollbackOn, searchRollsBack) {
    const release = result.release;
    const parts = [cause.trim()];
    if (release?.state === 'replaced') {
        const replaced = (0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'replaced');
        if (replaced && !cause.includes(replaced.evidence))
            parts.push(`Then another deploy replaced this one: ${replaced.evidence}`);
        parts.push(`This run never rolls back another deploy, so nothing was rolled back. If both deploys were yours, give the jobs that deploy to '${release.environment}' one concurrency group so they run one at a time.`);
    }
    else if (release !== undefined) {
        const text = rollbackText(release, rollbackOn, searchRollsBack);
        if (text)
            parts.push(text);
    }
    const now = nowRuns(result);
    if (now)
        parts.push(now);
    return parts.join(' ');
}
/** For the watchdog: what was requested and how far it came, and what runs now. */
function whereItStands(result) {
    const release = result?.release;
    if (result === undefined || release === undefined)
        return '';
    const parts = [];
    if ((0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'requested'))
        parts.push(`The deploy of ${release.distributionId} to '${release.environment}' was requested (last state: ${release.state}).`);
    else if ((0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'unconfirmed'))
        parts.push(`A deploy of ${release.distributionId} to '${release.environment}' was sent, but no answer or look confirmed it: it may have been carried out.`);
    else
        parts.push(`No deploy of ${release.distributionId} to '${release.environment}' was sent.`);
    if ((0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-requested'))
        parts.push(`A rollback to ${release.rollbackTo ?? '?'} was requested${(0,_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-applied') ? ' and applied' : release.rollbackNotSeen !== undefined ? `; ${release.rollbackNotSeen}` : ''}.`);
    else if (release.rollbackTo !== undefined)
        parts.push(`A rollback to ${release.rollbackTo} was under way; the platform had not confirmed its request.`);
    const now = nowRuns(result);
    if (now)
        parts.push(now);
    return ` ${parts.join(' ')}`;
}


/***/ }),

/***/ 350:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   EN: () => (/* binding */ rolledBack),
/* harmony export */   Gj: () => (/* binding */ newRelease),
/* harmony export */   V6: () => (/* binding */ reached),
/* harmony export */   Ve: () => (/* binding */ enter),
/* harmony export */   mn: () => (/* binding */ wasRequested),
/* harmony export */   uJ: () => (/* binding */ mayHaveBeenRequested)
/* harmony export */ });
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8676);
/* harmony import */ var _look_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9392);
// The release as an explicit state machine. Each state is entered once, with the evidence that justified
// it (what the platform or the site answered) and when; report.ts tells the outcome from these alone.
//
//   requested -> in-progress -> applied -> healthy -> verified       (reported: our id from the first look on, or after none, no switch seen)
//       |             |            |          |
//       +-------------+------------+----------+--> failed -> rollback-requested -> rollback-applied -> rollback-healthy
//   (waiting first, when the environment is busy; unconfirmed: a request went out and no answer or look
//    settled whether it was carried out, until one does)   replaced: another distribution runs now (from any live state; never rolled back)
//   already-running: before any call of ours, another deploy put this very distribution there (nothing is sent)


/** Which states may follow which: anything else is a bug, and throws. */
const NEXT = {
    planned: ['waiting', 'unconfirmed', 'requested', 'failed', 'replaced', 'already-running'],
    waiting: ['unconfirmed', 'requested', 'failed', 'replaced', 'already-running'],
    unconfirmed: ['requested', 'failed', 'replaced'],
    requested: ['in-progress', 'reported', 'applied', 'healthy', 'verified', 'failed', 'replaced'],
    'in-progress': ['applied', 'reported', 'failed', 'replaced'],
    reported: ['applied', 'healthy', 'verified', 'failed', 'replaced'],
    applied: ['healthy', 'verified', 'failed', 'replaced'],
    healthy: ['verified', 'failed', 'replaced'],
    verified: [],
    failed: ['rollback-requested', 'rollback-failed', 'replaced'],
    replaced: [],
    'rollback-requested': ['rollback-applied', 'rollback-failed', 'replaced'],
    'rollback-applied': ['rollback-healthy', 'rollback-failed', 'replaced'],
    'rollback-healthy': [],
    'rollback-failed': [],
    'already-running': []
};
function newRelease(environment, distributionId, previous) {
    return { environment, distributionId, previous, redeploy: (0,_look_js__WEBPACK_IMPORTED_MODULE_0__/* .sameId */ .s)(previous, distributionId), state: 'planned', transitions: [] };
}
/** Moves the release on, recording why; logs the step so the log and the summary tell the same story. */
function enter(release, state, evidence, at = Date.now()) {
    if (!NEXT[release.state].includes(state))
        throw new Error(`Release: no transition from ${release.state} to ${state} (${evidence})`);
    release.state = state;
    release.transitions.push({ state, at, evidence });
    _port_js__WEBPACK_IMPORTED_MODULE_1__/* .info */ .pq(`Release ${state}: ${evidence}`);
}
function reached(release, state) {
    return release?.transitions.find((t) => t.state === state);
}
/** The deploy call went through (sent and answered, or adopted after a lost answer). */
function wasRequested(release) {
    return reached(release, 'requested') !== undefined;
}
/** A deploy request of ours went out whose outcome no answer or look settled: it may have been carried out. */
function mayHaveBeenRequested(release) {
    return !wasRequested(release) && reached(release, 'unconfirmed') !== undefined;
}
/** A rollback was applied: after it was requested, the environment reported the previous distribution again. */
function rolledBack(release) {
    return reached(release, 'rollback-applied') !== undefined;
}


/***/ }),

/***/ 3916:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   KN: () => (/* binding */ TokenRefused),
/* harmony export */   LG: () => (/* binding */ refusesLogin),
/* harmony export */   QU: () => (/* binding */ LoginRefused),
/* harmony export */   Uc: () => (/* binding */ describeError),
/* harmony export */   _7: () => (/* binding */ ServiceError),
/* harmony export */   an: () => (/* binding */ StepFailed),
/* harmony export */   dz: () => (/* binding */ InputError),
/* harmony export */   lZ: () => (/* binding */ ActionError),
/* harmony export */   vq: () => (/* binding */ systemErrorCode)
/* harmony export */ });
// Error classes shared by every module, and the two ways of reading any error. main.ts turns any of
// them into one failure annotation.
/** A failure whose message is written for the user (what went wrong, what to do): printed as it is. */
class ActionError extends Error {
    name = 'ActionError';
}
/** A problem the user fixes in the workflow or the distribution: raised before any request is sent. */
class InputError extends ActionError {
    name = 'InputError';
}
/** The service answered with a status that is not a success. Never carries a request body or header. */
class ServiceError extends ActionError {
    status;
    errorCode;
    errorDetail;
    retryAfterMs;
    name = 'ServiceError';
    constructor(message, status, 
    /** The platform's `error_code` from the answer body (not a system error code). */
    errorCode, errorDetail, 
    /** From a Retry-After header, when the service sent one. */
    retryAfterMs) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
        this.errorDetail = errorDetail;
        this.retryAfterMs = retryAfterMs;
    }
}
/** The stack refused the password login (a 4xx): the same credentials will be refused again. */
class LoginRefused extends ServiceError {
    name = 'LoginRefused';
    loginRefused = true;
}
/** The stack refused a token it did not issue (single sign-on, access-token) before any change; not a ServiceError: it is not retried. */
class TokenRefused extends ActionError {
    name = 'TokenRefused';
    loginRefused = true;
}
/** The login was refused (LoginRefused, TokenRefused, or a token endpoint's refusal, which sets loginRefused too): a face's exit code says so. */
function refusesLogin(error) {
    return error instanceof ActionError && error.loginRefused === true;
}
/**
 * The operating system's or undici's code of a failure (ECONNRESET, UND_ERR_SOCKET, ...), looked up
 * on the error and its causes; undefined when there is none.
 */
function systemErrorCode(error) {
    let e = error;
    for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
        const code = e.code;
        if (typeof code === 'string')
            return code;
        e = e.cause;
    }
    return undefined;
}
/** An error's message for a log line; prefixed with its HTTP status when it carries one its message does not name (Octokit's errors). */
function describeError(error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = error?.status;
    return typeof status === 'number' && !message.includes(`HTTP ${status}`) ? `HTTP ${status}: ${message}` : message;
}
/** A step stopped part-way: `result` holds what it did (for the outputs and the summary), `cause` why it stopped. */
class StepFailed extends Error {
    result;
    cause;
    name = 'StepFailed';
    constructor(result, cause) {
        super(cause instanceof Error ? cause.message : String(cause));
        this.result = result;
        this.cause = cause;
    }
}


/***/ }),

/***/ 6264:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   TF: () => (/* binding */ formatMb),
/* harmony export */   Xo: () => (/* binding */ formatSeconds),
/* harmony export */   Zk: () => (/* binding */ formatDelay),
/* harmony export */   a3: () => (/* binding */ formatDuration),
/* harmony export */   z3: () => (/* binding */ formatBytes)
/* harmony export */ });
// How sizes and durations read in logs, notices and the summary.
function formatBytes(n) {
    if (n < 1024)
        return `${n} B`;
    if (n < 1024 * 1024)
        return `${(n / 1024).toFixed(1)} KB`;
    if (n < 1024 * 1024 * 1024)
        return `${(n / 1024 / 1024).toFixed(1)} MB`;
    return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
function formatDuration(ms) {
    if (ms < 1000)
        return `${ms} ms`;
    if (ms < 60_000)
        return `${(ms / 1000).toFixed(1)} s`;
    return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
/** A wait before another attempt: "1.5 s". */
function formatDelay(ms) {
    return `${(ms / 1000).toFixed(1)} s`;
}
/** A configured time, as exact as it was given: "0.5 s", "2 s". */
function formatSeconds(ms) {
    return `${Number((ms / 1000).toFixed(3))} s`;
}
/** "650 MB", "712.4 MB" (1 MB = 1024 * 1024 bytes), as max-distribution-mb counts. */
function formatMb(bytes) {
    return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}


/***/ }),

/***/ 6584:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   LW: () => (/* binding */ GitHubCallFailed),
/* harmony export */   h0: () => (/* binding */ short),
/* harmony export */   yN: () => (/* binding */ GitHubApi)
/* harmony export */ });
/* unused harmony export CALL_LIMIT_MS */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8676);
/* harmony import */ var _http_proxy_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(7856);
/* harmony import */ var _http_retry_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8902);
/* harmony import */ var _http_time_limit_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3689);
// THE door to GitHub's REST API: the few calls the action makes (Deployments, their statuses, a compare
// of two commits), each with a time limit and the run's stop, answers read into small typed records.
// Everything GitHub does for the action is best effort: callers turn a failure into a warning.





/** A refusal or failure of a GitHub call, with the status when there was an answer. */
class GitHubCallFailed extends Error {
    call;
    status;
    name = 'GitHubCallFailed';
    failure;
    constructor(call, status, detail, failure) {
        super(`${call}: ${detail}`);
        this.call = call;
        this.status = status;
        this.failure = failure ?? failureOf(status);
    }
}
function failureOf(status) {
    if (status === undefined)
        return 'unreachable';
    if (status === 401)
        return 'bad-token';
    if (status === 403)
        return 'forbidden';
    if (status === 404 || status === 422)
        return 'not-found';
    return 'failed';
}
/** Each call's own limit: GitHub answers these in well under a second; a hang must not hold the deploy. */
const CALL_LIMIT_MS = 15_000;
/** Attempts of a read that failed the way a moment's outage does (no answer, a 5xx): a blip must not refuse a deploy. */
const READ_ATTEMPTS = 3;
/** Pages of 100 read when looking for a Deployment: the newest 300 of an environment are plenty, and bound the cost. */
const MAX_PAGES = 3;
class GitHubApi {
    octokit;
    repo;
    repoUrl;
    runUrl;
    sha;
    ref;
    signal;
    apiUrl;
    limitMs;
    readAttempts;
    constructor(octokit, repo, 
    /** The web address of the repository (for commit links). */
    repoUrl, 
    /** This workflow run's page, when the runner says which run this is. */
    runUrl, 
    /** The commit this run was started for (GITHUB_SHA); empty outside a runner. */
    sha, 
    /** The branch or tag this run was started for (GITHUB_REF). */
    ref, signal, 
    /** Where GitHub's API is (GITHUB_API_URL), for messages. */
    apiUrl, limitMs = CALL_LIMIT_MS, 
    /** Attempts of a read; one for the closing calls, which have a short limit. */
    readAttempts = READ_ATTEMPTS) {
        this.octokit = octokit;
        this.repo = repo;
        this.repoUrl = repoUrl;
        this.runUrl = runUrl;
        this.sha = sha;
        this.ref = ref;
        this.signal = signal;
        this.apiUrl = apiUrl;
        this.limitMs = limitMs;
        this.readAttempts = readAttempts;
    }
    /**
     * A client for the repository this run belongs to, as the face tells it (the port's runContext: the runner's
     * GITHUB_REPOSITORY, or the CLI's --repository); GitHub's API where @actions/github finds it (GITHUB_API_URL).
     */
    static async open(token, signal, run = (0,_port_js__WEBPACK_IMPORTED_MODULE_2__/* .runContext */ .pO)()) {
        const [owner, name] = run.repository.split('/');
        if (!owner || !name)
            throw new Error(`github-token is set, but no GitHub repository (owner/name) is known for it: '${run.repository}'`);
        const repo = { owner, repo: name };
        const github = await Promise.all(/* import() */[__nccwpck_require__.e(752), __nccwpck_require__.e(413)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2413));
        const octokit = github.getOctokit(token);
        const apiUrl = github.context.apiUrl || 'https://api.github.com';
        return new GitHubApi(octokit, repo, `${run.serverUrl}/${owner}/${name}`, run.runUrl, run.sha, run.ref, signal, apiUrl);
    }
    /**
     * The same client for the run's closing calls (a GitHub Deployment's final status): not ended by the run's
     * stop, which already fired after a cancel or the watchdog, and with a short limit of its own.
     */
    closing(limitMs) {
        return new GitHubApi(this.octokit, this.repo, this.repoUrl, this.runUrl, this.sha, this.ref, undefined, this.apiUrl, limitMs, 1);
    }
    commitUrl(sha) {
        return `${this.repoUrl}/commit/${sha}`;
    }
    async createDeployment(ref, environment, description, payload) {
        const data = await this.call('Creating a GitHub Deployment', 'POST /repos/{owner}/{repo}/deployments', {
            ref,
            environment,
            description,
            payload,
            auto_merge: false,
            required_contexts: [],
            production_environment: /prod/i.test(environment),
            transient_environment: false
        });
        const id = data.id;
        if (typeof id !== 'number')
            throw new GitHubCallFailed('Creating a GitHub Deployment', undefined, 'the answer carries no deployment id', 'failed');
        return id;
    }
    async createStatus(id, params) {
        await this.call(`Setting the status of GitHub Deployment ${id}`, 'POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
            deployment_id: id,
            ...params
        });
    }
    /** Deployments of this repository, newest first (of one environment when given), up to MAX_PAGES pages. */
    async listDeployments(environment) {
        const out = [];
        for (let page = 1; page <= MAX_PAGES; page++) {
            const data = await this.read('Listing GitHub Deployments', 'GET /repos/{owner}/{repo}/deployments', {
                ...(environment === undefined ? {} : { environment }),
                per_page: 100,
                page
            });
            const items = Array.isArray(data) ? data : [];
            for (const item of items) {
                const record = toDeployment(item);
                if (record)
                    out.push(record);
            }
            if (items.length < 100)
                break;
        }
        return out;
    }
    /** The newest status of a Deployment, or undefined when it has none. */
    async latestStatus(id) {
        const data = await this.read(`Reading the status of GitHub Deployment ${id}`, 'GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses', {
            deployment_id: id,
            per_page: 1
        });
        const first = Array.isArray(data) ? data[0] : undefined;
        if (first === undefined || typeof first.state !== 'string')
            return undefined;
        return { state: first.state, logUrl: stringOr(first.log_url) ?? stringOr(first.target_url), createdAt: stringOr(first.created_at) };
    }
    /** How `head` relates to `base` (commits, full or abbreviated). */
    async compare(base, head) {
        const data = (await this.read(`Comparing ${short(base)} with ${short(head)}`, 'GET /repos/{owner}/{repo}/compare/{basehead}', {
            basehead: `${base}...${head}`,
            per_page: 1
        }));
        const status = data.status;
        if (status !== 'ahead' && status !== 'behind' && status !== 'identical' && status !== 'diverged') {
            throw new GitHubCallFailed(`Comparing ${short(base)} with ${short(head)}`, undefined, `the answer's status is ${JSON.stringify(status)}`, 'failed');
        }
        return { status, aheadBy: numberOr(data.ahead_by), behindBy: numberOr(data.behind_by) };
    }
    /** A read: tried again after no answer or a 5xx (a moment's outage), never after a refusal; ended at once by the run's stop. */
    read(what, route, params) {
        return (0,_http_retry_js__WEBPACK_IMPORTED_MODULE_1__/* .withRetry */ .bD)(() => this.call(what, route, params), {
            attempts: this.readAttempts,
            baseDelayMs: 1_000,
            maxDelayMs: 4_000,
            retryable: (error) => error instanceof GitHubCallFailed && (error.failure === 'unreachable' || error.failure === 'failed'),
            signal: this.signal
        });
    }
    async call(what, route, params) {
        const limit = (0,_http_time_limit_js__WEBPACK_IMPORTED_MODULE_3__/* .timeLimit */ .z)(this.limitMs, this.signal);
        try {
            const answer = await this.octokit.request(route, { ...this.repo, ...params, request: { signal: limit.signal } });
            return answer.data;
        }
        catch (error) {
            // The run's own stop (a cancel, the watchdog) is no failure of GitHub's: octokit reports an abort as HTTP 500.
            if (this.signal?.aborted)
                throw this.signal.reason;
            if (limit.expired())
                throw new GitHubCallFailed(what, undefined, `no answer from ${this.apiUrl} within ${this.limitMs / 1000} s`);
            const status = error.status;
            // Octokit gives HTTP 500 with no answer to a call that reached nothing (DNS, a refused connection, a proxy).
            const answered = error.response !== undefined;
            if (typeof status === 'number' && answered)
                throw new GitHubCallFailed(what, status, `HTTP ${status} ${githubMessage(error)}`.trim());
            throw new GitHubCallFailed(what, undefined, this.unreachable(error));
        }
        finally {
            limit.clear();
        }
    }
    /** Why GitHub could not be reached: the connection's own code, and the proxy it went through when one is set. */
    unreachable(error) {
        const code = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .systemErrorCode */ .vq)(error);
        const cause = error.cause;
        const text = cause?.cause instanceof Error ? cause.cause.message : (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .describeError */ .Uc)(error);
        const proxy = (0,_http_proxy_js__WEBPACK_IMPORTED_MODULE_4__/* .proxyFor */ .iJ)(this.apiUrl);
        const via = proxy ? ` through the proxy ${proxy.url} (set by ${proxy.variable})` : '';
        return `${this.apiUrl} could not be reached${via} (${code !== undefined && !text.includes(code) ? `${code}: ` : ''}${text})`;
    }
}
/** The first 7 characters of a commit, as GitHub shows it. */
function short(sha) {
    return /^[0-9a-f]{8,40}$/i.test(sha) ? sha.slice(0, 7) : sha;
}
function githubMessage(error) {
    const data = error.response?.data;
    return typeof data?.message === 'string' ? `(${data.message})` : '';
}
function stringOr(value) {
    return typeof value === 'string' && value !== '' ? value : undefined;
}
function numberOr(value) {
    return typeof value === 'number' ? value : 0;
}
/** A payload GitHub gives back as an object, or as the JSON string it was given as. */
function toPayload(value) {
    let v = value;
    if (typeof v === 'string') {
        try {
            v = JSON.parse(v);
        }
        catch {
            return {};
        }
    }
    if (v === null || typeof v !== 'object')
        return {};
    const r = v;
    return {
        distributionId: stringOr(r.distributionId),
        distributionName: stringOr(r.distributionName),
        apiUrl: stringOr(r.apiUrl),
        ...(r.commit === 'unknown' && { commit: 'unknown' })
    };
}
function toDeployment(item) {
    if (item === null || typeof item !== 'object')
        return undefined;
    const r = item;
    if (typeof r.id !== 'number' || typeof r.sha !== 'string')
        return undefined;
    const creator = r.creator?.login;
    return {
        id: r.id,
        sha: r.sha,
        environment: stringOr(r.environment) ?? '',
        payload: toPayload(r.payload),
        creator: stringOr(creator),
        createdAt: stringOr(r.created_at)
    };
}


/***/ }),

/***/ 2579:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   c: () => (/* binding */ runnerContext)
/* harmony export */ });
function runnerContext(env = process.env) {
    const repository = env.GITHUB_REPOSITORY ?? '';
    const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com';
    const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10);
    return {
        sha: env.GITHUB_SHA ?? '',
        noCommit: 'GITHUB_SHA is not set: not on a runner',
        ref: env.GITHUB_REF ?? '',
        repository,
        serverUrl,
        runUrl: runId && repository ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
        workspace: env.GITHUB_WORKSPACE || process.cwd()
    };
}


/***/ }),

/***/ 8549:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   N1: () => (/* binding */ toServiceError),
/* harmony export */   bg: () => (/* binding */ mayPass),
/* harmony export */   dg: () => (/* binding */ isTransient),
/* harmony export */   rd: () => (/* binding */ networkFailure)
/* harmony export */ });
/* unused harmony exports redirectText, retryAfterMs */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7194);
// Builds the error for a non-2xx answer, and classifies failures: which are network failures (and
// of which kind), which are worth another attempt.


/** The one list of network failures: a call that timed out, or a connection that failed. Both are worth another attempt. */
const NETWORK_FAILURES = {
    ETIMEDOUT: 'timeout',
    UND_ERR_CONNECT_TIMEOUT: 'timeout',
    UND_ERR_HEADERS_TIMEOUT: 'timeout',
    UND_ERR_BODY_TIMEOUT: 'timeout',
    ECONNRESET: 'connection',
    ECONNREFUSED: 'connection',
    EPIPE: 'connection',
    EAI_AGAIN: 'connection',
    ENETUNREACH: 'connection',
    EHOSTUNREACH: 'connection',
    UND_ERR_SOCKET: 'connection',
    UND_ERR_CLOSED: 'connection'
};
/** The kind of network failure `error` is, or undefined when it is none of the known ones. */
function networkFailure(error) {
    const code = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .systemErrorCode */ .vq)(error);
    const kind = code === undefined ? undefined : NETWORK_FAILURES[code];
    return code !== undefined && kind !== undefined ? { code, kind } : undefined;
}
/** Reads `{error_code, error_detail}` (cloud API) or `{status_code, message}` (search API). Never echoes a body that is not JSON. */
function toServiceError(operation, res) {
    let code;
    let detail;
    try {
        const body = JSON.parse(res.text);
        if (typeof body.error_code === 'string')
            code = body.error_code;
        if (typeof body.error_detail === 'string')
            detail = body.error_detail;
        else if (typeof body.message === 'string')
            detail = body.message;
    }
    catch {
        // Not JSON (a proxy's HTML page, say): say so, but print none of it.
    }
    if (detail !== undefined)
        detail = (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(detail).slice(0, 500);
    const what = redirectText(res) ?? ([code, detail].filter(Boolean).join(': ') || (res.text ? 'the answer was not a JSON error body' : 'no answer body'));
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7(`${operation} failed: HTTP ${res.status} (${what})`, res.status, code, detail, retryAfterMs(res));
}
/**
 * What a 3xx answer says: where it points. Redirects are never followed (they would carry the
 * bearer token or the auth key to another place), so the user must correct the address. The
 * query string is left out: a redirect can carry a secret back in it.
 */
function redirectText(res) {
    if (res.status < 300 || res.status > 399)
        return undefined;
    const value = res.headers.location;
    const location = (Array.isArray(value) ? value[0] : value)?.replace(/[?#].*$/s, '');
    if (!location)
        return 'a redirect without a Location; redirects are not followed';
    return `a redirect to ${(0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(location).slice(0, 300)}; redirects are not followed: check the address the action was given`;
}
function retryAfterMs(res) {
    const value = res.headers['retry-after'];
    const text = Array.isArray(value) ? value[0] : value;
    if (!text)
        return undefined;
    if (/^\d+$/.test(text))
        return Number(text) * 1000;
    const date = Date.parse(text);
    return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
/** Network failures and 429/502/503/504 are worth another attempt; any other answer is not. */
function isTransient(error) {
    if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7) {
        if (error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504) {
            return error.retryAfterMs !== undefined ? { afterMs: error.retryAfterMs } : true;
        }
        return false;
    }
    return networkFailure(error) !== undefined;
}
/**
 * A failure that may pass on its own (a 5xx or 429 after its attempts, no connection, a token endpoint that
 * failed the same way while renewing the token): a wait that meets one looks again later instead of ending.
 * A refusal (401, 404, a token endpoint's refusal) or a bug does not.
 */
function mayPass(error) {
    if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7)
        return error.status >= 500 || error.status === 429;
    if (error?.transient === true)
        return true;
    return networkFailure(error) !== undefined;
}


/***/ }),

/***/ 7856:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   XO: () => (/* binding */ noProxyWithLoopback),
/* harmony export */   iJ: () => (/* binding */ proxyFor)
/* harmony export */ });
/* unused harmony exports LOOPBACK_NO_PROXY, isLoopbackAddress */
// Which proxy a call goes through, by the rules undici's EnvHttpProxyAgent applies (HTTPS_PROXY for https,
// HTTP_PROXY for http, lower case first, NO_PROXY's exceptions), so a failure can name the proxy and the
// variable that set it. Loopback addresses never go through a proxy: the proxy cannot reach the runner's own
// 127.0.0.1 (the emulator, a local stand-in), and it would see the password sent there.
/** Always bypass the proxy: loopback, by name and by address (IPv6 as undici compares it, in brackets). */
const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '[::1]'];
/** NO_PROXY as the transport applies it: the user's list plus loopback (a '*' stays '*': nothing is proxied). */
function noProxyWithLoopback(env = process.env, host) {
    const user = env.no_proxy ?? env.NO_PROXY ?? '';
    if (user.trim() === '*')
        return '*';
    const extra = host !== undefined && isLoopbackAddress(host) && !LOOPBACK_NO_PROXY.includes(host) ? [host] : [];
    return [user, ...LOOPBACK_NO_PROXY, ...extra].filter((e) => e !== '').join(',');
}
/** localhost, 127.0.0.0/8, ::1 (a host as URL.hostname gives it, IPv6 in brackets). */
function isLoopbackAddress(hostname) {
    const h = hostname.toLowerCase();
    return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '[::1]' || h === '::1';
}
/** The proxy a call to `target` goes through, or undefined when it goes direct. */
function proxyFor(target, env = process.env) {
    let url;
    try {
        url = new URL(target);
    }
    catch {
        return undefined;
    }
    const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
    const variable = names.find((n) => (env[n] ?? '') !== '');
    if (variable === undefined)
        return undefined;
    if (!shouldProxy(url, noProxyWithLoopback(env, url.hostname)))
        return undefined;
    return { url: withoutCredentials(env[variable] ?? ''), variable };
}
/** undici's NO_PROXY rule: an exact host, or a suffix for an entry starting with '.' or '*'; a port when given. */
function shouldProxy(url, noProxy) {
    if (noProxy === '*')
        return false;
    const host = url.host.replace(/:\d*$/, '').toLowerCase();
    const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80);
    for (const entry of noProxy.split(/[,\s]/)) {
        if (entry === '')
            continue;
        const m = /^(.+):(\d+)$/.exec(entry);
        const name = (m ? (m[1] ?? '') : entry).toLowerCase();
        if (m && Number(m[2]) !== port)
            continue;
        if (/^[.*]/.test(name) ? host.endsWith(name.replace(/^\*/, '')) : host === name)
            return false;
    }
    return true;
}
function withoutCredentials(proxy) {
    try {
        const u = new URL(proxy);
        u.username = '';
        u.password = '';
        return u.toString().replace(/\/$/, '');
    }
    catch {
        return '(an address that is not a URL)';
    }
}


/***/ }),

/***/ 8902:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Eu: () => (/* binding */ untilAborted),
/* harmony export */   SB: () => (/* binding */ createRetrier),
/* harmony export */   bD: () => (/* binding */ withRetry),
/* harmony export */   sP: () => (/* binding */ Poll),
/* harmony export */   yy: () => (/* binding */ sleep)
/* harmony export */ });
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6698);
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_async_hooks__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3916);
/* harmony import */ var _format_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6264);
// One retry helper: exponential backoff with full jitter, bounded attempts and total time; and on
// top of it `retrying`, which gives each user-visible operation its attempts.



/** Waits `ms`; with a signal, rejects with its reason as soon as it aborts, so no wait outlives a stopped run. */
function sleep(ms, signal) {
    if (signal === undefined)
        return new Promise((resolve) => setTimeout(resolve, ms));
    return new Promise((resolve, reject) => {
        if (signal.aborted)
            return reject(signal.reason);
        const stop = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', stop);
            resolve();
        }, ms);
        signal.addEventListener('abort', stop, { once: true });
    });
}
/** The wait of `options`: an injected sleep (tests), else the real one, ended by the signal either way. */
function waiter(options) {
    const { signal } = options;
    const inject = options.sleep;
    if (inject === undefined)
        return (ms) => sleep(ms, signal);
    if (signal === undefined)
        return inject;
    return (ms) => untilAborted(inject(ms), signal);
}
/** `promise`, or the signal's reason as soon as it aborts (the listener removed either way). */
function untilAborted(promise, signal) {
    if (signal.aborted)
        return Promise.reject(signal.reason);
    let stop;
    const stopped = new Promise((_, reject) => {
        stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
    });
    return Promise.race([promise, stopped]).finally(() => signal.removeEventListener('abort', stop));
}
async function withRetry(fn, options) {
    const base = options.baseDelayMs ?? 500;
    const cap = options.maxDelayMs ?? 10_000;
    const wait = waiter(options);
    const random = options.random ?? Math.random;
    const now = options.now ?? Date.now;
    const started = now();
    for (let attempt = 1;; attempt++) {
        try {
            return await fn(attempt);
        }
        catch (error) {
            const verdict = attempt < options.attempts ? options.retryable(error) : false;
            if (verdict === false)
                throw error;
            const backoff = Math.round(random() * Math.min(cap, base * 2 ** (attempt - 1)));
            const delay = typeof verdict === 'object' ? Math.max(verdict.afterMs, backoff) : backoff;
            if (options.maxTotalMs !== undefined && now() - started + delay > options.maxTotalMs)
                throw error;
            const end = options.until?.();
            if (end !== undefined && now() + delay >= end)
                throw error;
            options.onRetry?.(error, attempt, delay);
            await wait(delay);
        }
    }
}
/**
 * Which retrier's operation the current call runs inside. One storage for the whole process: each
 * AsyncLocalStorage instance stays live and adds work to every promise made afterwards (Node 20), so
 * one per retrier made a long-lived process (the simulation's thousands of runs) slower with each.
 */
const running = new node_async_hooks__WEBPACK_IMPORTED_MODULE_0__.AsyncLocalStorage();
function createRetrier(policy, log) {
    const retrier = {
        retrying(operation, fn, notice) {
            if (running.getStore() === retrier)
                return fn(1);
            const line = notice ??
                ((error, attempt, delay) => ({
                    level: 'info',
                    message: `${operation}: attempt ${attempt} failed (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .describeError */ .Uc)(error)}); retrying in ${(0,_format_js__WEBPACK_IMPORTED_MODULE_2__/* .formatDelay */ .Zk)(delay)}`
                }));
            return running.run(retrier, () => withRetry(fn, {
                ...policy,
                onRetry: (error, attempt, delay) => {
                    const { level, message } = line(error, attempt, delay);
                    log(level, message);
                }
            }));
        }
    };
    return retrier;
}
/** The pace of looking again until something is done (a deploy applied, a site healthy), within a time limit. */
class Poll {
    options;
    now;
    wait;
    interval;
    started;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? Date.now;
        this.wait = waiter(options);
        this.interval = options.intervalMs;
        this.started = this.now();
    }
    /** Milliseconds since the first look. */
    elapsed() {
        return this.now() - this.started;
    }
    /** Pauses before the next look; false (at once) when the time is up. */
    async next() {
        const left = (this.options.until?.() ?? this.started + this.options.timeoutMs) - this.now();
        if (left <= 0)
            return false;
        await this.wait(Math.min(this.interval, left));
        this.interval = Math.min(this.options.maxIntervalMs, Math.round(this.interval * 1.5));
        return true;
    }
}


/***/ }),

/***/ 3689:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   z: () => (/* binding */ timeLimit)
/* harmony export */ });
// A call's own time limit, joined with the run's stop, as one AbortSignal. It runs on the global clock
// (setTimeout), which a simulation's fake clock drives; AbortSignal.timeout runs on Node's internal
// timers, which no fake clock reaches, so a hang in a simulated run would last real seconds.
function timeLimit(ms, stop) {
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
        expired = true;
        controller.abort(new DOMException(`no answer within ${Math.round(ms / 1000)} s`, 'TimeoutError'));
    }, Math.max(0, ms));
    timer.unref?.();
    const onStop = () => controller.abort(stop?.reason);
    if (stop?.aborted)
        onStop();
    else
        stop?.addEventListener('abort', onStop, { once: true });
    return {
        signal: controller.signal,
        expired: () => expired,
        clear: () => {
            clearTimeout(timer);
            stop?.removeEventListener('abort', onStop);
        }
    };
}


/***/ }),

/***/ 1617:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CI: () => (/* binding */ resolveCloudAddress),
/* harmony export */   NI: () => (/* binding */ AddressInput),
/* harmony export */   Q2: () => (/* binding */ parseBaseUrl),
/* harmony export */   cW: () => (/* binding */ isLoopbackHost),
/* harmony export */   sD: () => (/* binding */ parsePageUrl),
/* harmony export */   wS: () => (/* binding */ parseAbsoluteUrl),
/* harmony export */   xe: () => (/* binding */ requireHttps)
/* harmony export */ });
/* unused harmony export validateStackName */
/* harmony import */ var _action_metadata_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(227);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3916);
// Addresses given as inputs. The one rule set for a service's base address (the cloud API's api-url,
// the search API's search-base-url): absolute, no credentials or query in it, https (plain http only to
// this machine), no trailing slash, and not the API path itself. And the one API base address that
// receives the password, from api-url, console-url or stack + platform-domain. Everything here is strict
// on purpose: a loose parse of a stack name could send credentials to a host the user did not mean.


/** The inputs that decide the cloud API address. Workflows depend on them: never rename one. */
const AddressInput = {
    Stack: 'stack',
    ConsoleUrl: 'console-url',
    PlatformDomain: 'platform-domain',
    ApiUrl: 'api-url'
};
/** True for hosts that never leave this machine: 127.0.0.0/8, localhost, [::1]. */
function isLoopbackHost(hostname) {
    const host = hostname.toLowerCase();
    if (host === 'localhost' || host === '[::1]' || host === '::1')
        return true;
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
/** Parses an absolute address that carries no credentials (and, unless `allowQuery`, no query or fragment). */
function parseAbsoluteUrl(value, rules, allowQuery = false) {
    const { input, example } = rules;
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${input} '${value}' is not an absolute address. Write it in full, for example ${example}.`);
    }
    if (url.username || url.password)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${input} must not contain a user name or password. ${rules.credentialsHint}`);
    if (!allowQuery && (url.search || url.hash)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${input} '${value}' must not have a query or fragment. Use the bare address, for example ${example}${rules.queryHint ?? ''}.`);
    }
    return url;
}
/** A base address without a trailing slash, e.g. https://api.mystack.bloomreach.cloud. */
function parseBaseUrl(value, rules) {
    const url = parseAbsoluteUrl(value, rules);
    requireHttps(url, value, rules);
    const path = url.pathname.replace(/\/+$/, '');
    if (rules.apiPath.test(path))
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${rules.input} '${value}' ${rules.apiPathMessage}, for example ${rules.example}.`);
    return `${url.protocol}//${url.host}${path}`;
}
/** https, or plain http to this machine only: what travels there would otherwise be readable on the way. */
function requireHttps(url, value, rules) {
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${rules.input} '${value}' uses plain http to ${url.hostname}: ${rules.secret} would travel unencrypted. ` +
            `Use https (plain http is accepted only for 127.0.0.1, localhost or [::1], such as the local emulator).`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${rules.input} '${value}' must start with https:// (for example ${rules.example}).`);
    }
}
/**
 * A public page of the site (health-url): absolute, no credentials (refused), a query allowed, the
 * fragment dropped; https or plain http, since nothing secret is sent (a development site may have no
 * certificate).
 */
function parsePageUrl(value, rules) {
    const url = parseAbsoluteUrl(value, rules, true);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${rules.input} '${value}' must start with https:// or http:// (for example ${rules.example}).`);
    url.hash = '';
    return url.href;
}
/** Mission Control of an API address of the current form (https://api.<stack>.<domain>); undefined for any other form. */
function consoleOf(apiUrl) {
    const m = /^https:\/\/api\.([a-z0-9-]+)\.([a-z0-9.-]+)$/i.exec(apiUrl);
    return m ? `https://missioncontrol.${m[1]}.${m[2]}` : undefined;
}
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** `input` names the value in messages: `stack`, or the stack part of console-url. */
/** The stack named by a console or API address given where a stack name belongs (missioncontrol.<stack>., api.<stack>., api-<stack>.). */
function stackIn(value) {
    const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s]+)/i.exec(value.trim())?.[1] ?? '';
    const m = /^(?:missioncontrol|api)[.-]([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.[a-z0-9.-]+$/i.exec(host);
    return m?.[1]?.toLowerCase();
}
function validateStackName(stack, input = AddressInput.Stack) {
    if (DNS_LABEL.test(stack))
        return stack.toLowerCase();
    let why = 'it must be one DNS label: letters, digits and hyphens, 1 to 63 characters, not starting or ending with a hyphen';
    const meant = stackIn(stack);
    if (meant !== undefined) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${input} '${stack}' is an address, not a stack name: use ${input}: ${meant} (the word after "missioncontrol." or "api."), ` +
            `or set ${AddressInput.ConsoleUrl} to the console address instead.`);
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(stack))
        why = 'it looks like an address, not a stack name';
    else if (stack.includes('.'))
        why = 'it contains a dot, so it is a host name, not a stack name';
    else if (stack.includes('/'))
        why = 'it contains a slash';
    else if (/\s/.test(stack))
        why = 'it contains white space';
    else if (stack.length > 63)
        why = `it is ${stack.length} characters long (at most 63)`;
    throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${input} '${stack}' is not a valid stack name: ${why}. Use the word that follows "missioncontrol." in your ` +
        `console address (for https://missioncontrol.mystack.bloomreach.cloud that is "mystack"), or set ${AddressInput.ConsoleUrl} to ` +
        `that address, or ${AddressInput.ApiUrl} to the full API address.`);
}
function validateDomain(domain) {
    const labels = domain.split('.');
    if (labels.length < 2 || !labels.every((l) => DNS_LABEL.test(l))) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${AddressInput.PlatformDomain} '${domain}' is not a host name (expected something like "bloomreach.cloud", with no scheme or slash). ` +
            `Leave it empty for the default "${_action_metadata_js__WEBPACK_IMPORTED_MODULE_0__/* .INPUT_DEFAULTS */ .W[AddressInput.PlatformDomain]}".`);
    }
    return domain.toLowerCase();
}
const API_URL_RULES = {
    input: AddressInput.ApiUrl,
    example: 'https://api.mystack.bloomreach.cloud',
    credentialsHint: 'Pass credentials through the username and password inputs.',
    secret: 'the password',
    apiPath: /\/v3$/i,
    apiPathMessage: 'ends with /v3: give the base address without the version'
};
function resolveConsoleUrl(value) {
    const url = parseAbsoluteUrl(value.replace(/#.*$/, ''), {
        input: AddressInput.ConsoleUrl,
        example: 'https://missioncontrol.mystack.bloomreach.cloud',
        credentialsHint: API_URL_RULES.credentialsHint
    });
    const match = /^missioncontrol\.([^.]+)\.(.+)$/i.exec(url.hostname);
    if (url.protocol !== 'https:' || !match) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz(`${AddressInput.ConsoleUrl} '${value}' is not a management console address. It must have the form ` +
            `https://missioncontrol.<stack>.<platform domain>, for example https://missioncontrol.mystack.bloomreach.cloud. ` +
            `For any other API host, set ${AddressInput.ApiUrl} instead.`);
    }
    return { stack: validateStackName(match[1] ?? '', `${AddressInput.ConsoleUrl} stack`), domain: validateDomain(match[2] ?? '') };
}
/** api-url wins, else console-url, else stack + platform-domain. */
function resolveCloudAddress(inputs) {
    if (inputs.apiUrl) {
        const stack = inputs.stack ? validateStackName(inputs.stack) : undefined;
        const apiUrl = parseBaseUrl(inputs.apiUrl, API_URL_RULES);
        return { apiUrl, stack, source: 'api-url', consoleUrl: consoleOf(apiUrl) };
    }
    if (inputs.consoleUrl) {
        const { stack, domain } = resolveConsoleUrl(inputs.consoleUrl);
        return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'console-url', consoleUrl: `https://missioncontrol.${stack}.${domain}` };
    }
    if (inputs.stack) {
        const stack = validateStackName(inputs.stack);
        const domain = validateDomain(inputs.platformDomain || _action_metadata_js__WEBPACK_IMPORTED_MODULE_0__/* .INPUT_DEFAULTS */ .W[AddressInput.PlatformDomain]);
        return { apiUrl: `https://api.${stack}.${domain}`, stack, source: 'stack', consoleUrl: `https://missioncontrol.${stack}.${domain}` };
    }
    throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .InputError */ .dz('No Bloomreach Cloud stack given. Set `stack` to your stack name (the word after "missioncontrol." in the console ' +
        'address), or `console-url` to the console address, or `api-url` to the full API address.');
}


/***/ }),

/***/ 8083:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  MB: () => (/* reexport */ MB),
  Ko: () => (/* binding */ readInputs)
});

// UNUSED EXPORTS: AddressInput, INPUT_DEFAULTS, Input, LoginInput, RENAMED, SearchInput, checkRequestSize, normalizeQuery, parseBoolean, parseDecimal, parseDistributionName, parseInteger, parseSearchBaseUrl, parseSearchConfig, resolveCloudAddress, validateStackName

// EXTERNAL MODULE: ./src/port.ts
var port = __nccwpck_require__(8676);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __nccwpck_require__(7194);
// EXTERNAL MODULE: ./src/cloud/distribution-name.ts
var distribution_name = __nccwpck_require__(7103);
// EXTERNAL MODULE: ./src/action-metadata.ts
var action_metadata = __nccwpck_require__(227);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: ./src/inputs/address.ts
var inputs_address = __nccwpck_require__(1617);
// EXTERNAL MODULE: ./src/cloud/jwt.ts
var jwt = __nccwpck_require__(1212);
;// CONCATENATED MODULE: ./src/inputs/parsers.ts
// The common parsers, each written once. An empty value takes action.yml's default (INPUT_DEFAULTS),
// parsed by the same rule: a runner passes the default itself, a direct call (a test, a local run)
// passes '', and both must give the same result. Every refusal is an InputError that names the input.


/** The value, or action.yml's default when it is empty ('' when there is none). */
function orDefault(name, value) {
    return value === '' ? action_metadata/* INPUT_DEFAULTS */.W[name] : value;
}
/** @actions/core's getBooleanInput rules, which every action follows: true, True, TRUE, false, False, FALSE; nothing else. */
/**
 * Whether the user set an input: a runner passes every input's default itself, so a value equal to
 * action.yml's default says nothing about the user's intent.
 */
function isSet(name, value) {
    return value !== '' && value !== action_metadata/* INPUT_DEFAULTS */.W[name];
}
function parseBoolean(name, value) {
    const v = orDefault(name, value);
    if (['true', 'True', 'TRUE'].includes(v))
        return true;
    if (['false', 'False', 'FALSE'].includes(v))
        return false;
    throw new errors/* InputError */.dz(`${name} '${v}' is not a boolean: write true or false (also True, TRUE, False or FALSE, as for every action).`);
}
function inRange(name, value, n, min, max) {
    if (n < min || n > max)
        throw new errors/* InputError */.dz(`${name} ${value} is out of range: write a number from ${min} to ${max}.`);
    return n;
}
function parseInteger(name, value, min, max) {
    const v = orDefault(name, value);
    if (!/^\d+$/.test(v))
        throw new errors/* InputError */.dz(`${name} '${v}' is not a whole number: write a number from ${min} to ${max}.`);
    return inRange(name, v, Number(v), min, max);
}
/** A positive number with an optional fraction (total-timeout-minutes: 0.5 is half a minute). */
function parseDecimal(name, value, min, max) {
    const v = orDefault(name, value);
    if (!/^\d+(\.\d+)?$/.test(v))
        throw new errors/* InputError */.dz(`${name} '${v}' is not a number: write a number from ${min} to ${max}, e.g. 30 or 2.5.`);
    return inRange(name, v, Number(v), min, max);
}
/** undefined when the value (and action.yml's default) is empty, else what `parse` makes of it. */
function optional(name, value, parse) {
    return orDefault(name, value) === '' ? undefined : parse(value);
}
/** `when` narrows the rule ("when search-query is set"); `why` says how to set the input. */
function required(name, value, why, when) {
    if (value === '')
        throw new errors/* InputError */.dz(`Input ${name} is required${when ? ` ${when}` : ''}: ${why}`);
    return value;
}

;// CONCATENATED MODULE: ./src/inputs/login.ts




const LoginInput = {
    Username: 'username',
    Password: 'password',
    TokenUrl: 'token-url',
    ClientId: 'client-id',
    ClientSecret: 'client-secret',
    OidcAudience: 'oidc-audience',
    Audience: 'audience',
    Scope: 'scope',
    AccessToken: 'access-token'
};
const SSO_DOCS = 'docs/single-sign-on.md';
/** Names of the inputs in `names` that are set. */
function setOf(read, names) {
    return names.filter((n) => read(n) !== '');
}
/** Refuses inputs that would be ignored: a login reads one set of credentials. */
function refuseWith(read, names, why) {
    const set = setOf(read, names);
    if (set.length > 0)
        throw new errors/* InputError */.dz(`${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, but ${why}.`);
}
/** `password` was read untrimmed and masked by the caller; `env` is where GitHub says whether an OIDC token can be asked for. */
function readLogin(read, password, env = process.env) {
    const pick = (name) => (name === LoginInput.Password ? password : read(name));
    const accessToken = read(LoginInput.AccessToken);
    if (accessToken !== '') {
        refuseWith(pick, [
            LoginInput.Username,
            LoginInput.Password,
            LoginInput.TokenUrl,
            LoginInput.ClientId,
            LoginInput.ClientSecret,
            LoginInput.OidcAudience,
            LoginInput.Audience,
            LoginInput.Scope
        ], 'access-token is used as it is, with no login: leave the other credentials empty, or leave access-token empty');
        return { kind: 'token', accessToken, expiresAtMs: (0,jwt/* jwtExpiry */.l)(accessToken) };
    }
    const tokenUrl = read(LoginInput.TokenUrl);
    if (tokenUrl === '') {
        refuseWith(pick, [LoginInput.ClientId, LoginInput.ClientSecret, LoginInput.OidcAudience, LoginInput.Audience, LoginInput.Scope], `token-url is empty: they are sent to an OAuth token endpoint, for a stack with single sign-on. Set token-url (see ${SSO_DOCS}), or leave them empty`);
        return passwordLogin(pick);
    }
    return oauthLogin(pick, parseTokenUrl(tokenUrl), env);
}
function passwordLogin(pick) {
    const username = required(LoginInput.Username, pick(LoginInput.Username), 'set it to the Bloomreach Cloud user that deploys, from a secret (username: ${{ secrets.BRC_USERNAME }}); on a stack with single sign-on, set token-url instead (see docs/single-sign-on.md).');
    const password = required(LoginInput.Password, pick(LoginInput.Password), 'set it from a secret (password: ${{ secrets.BRC_PASSWORD }}); if it is set and still empty, the secret is not available to this workflow (forks and Dependabot runs get no secrets).');
    return { kind: 'password', username, password };
}
function oauthLogin(pick, tokenUrl, env) {
    const value = (name) => pick(name) || undefined;
    const clientId = value(LoginInput.ClientId);
    const clientSecret = value(LoginInput.ClientSecret);
    const username = value(LoginInput.Username);
    const password = value(LoginInput.Password);
    const oidcAudience = value(LoginInput.OidcAudience);
    const common = {
        kind: 'oauth',
        tokenUrl,
        clientId,
        clientSecret,
        username,
        password,
        oidcAudience,
        audience: value(LoginInput.Audience),
        scope: value(LoginInput.Scope)
    };
    if (clientSecret !== undefined && clientId === undefined)
        throw new errors/* InputError */.dz('client-secret is set without client-id: set client-id to the OAuth client the secret belongs to.');
    if ((username === undefined) !== (password === undefined)) {
        throw new errors/* InputError */.dz(`With token-url, ${username === undefined ? 'password is set without username' : 'username is set without password'}: a script account needs both.`);
    }
    if (oidcAudience !== undefined) {
        refuseWith(pick, [LoginInput.ClientSecret, LoginInput.Username, LoginInput.Password], "oidc-audience logs in with GitHub's OIDC token instead of a secret: leave them empty, or leave oidc-audience empty");
        if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
            throw new errors/* InputError */.dz("oidc-audience is set, but GitHub gives this job no OIDC token: add 'permissions: id-token: write' to the job (or the workflow). " +
                '(A workflow run from a fork never gets one.)');
        }
        return { ...common, grant: 'client_assertion' };
    }
    if (username !== undefined)
        return { ...common, grant: 'password' };
    if (clientId !== undefined && clientSecret !== undefined)
        return { ...common, grant: 'client_credentials' };
    throw new errors/* InputError */.dz('token-url is set without credentials for it: set client-id and client-secret (client credentials), username and password (a script account ' +
        `of your identity provider), or oidc-audience (GitHub's OIDC token, no secret). See ${SSO_DOCS}.`);
}
function parseTokenUrl(value) {
    const rules = {
        input: LoginInput.TokenUrl,
        example: 'https://login.example.com/oauth/token',
        credentialsHint: 'Pass credentials through client-id and client-secret.',
        secret: 'the client secret or password'
    };
    const url = (0,inputs_address/* parseAbsoluteUrl */.wS)(value, rules, true);
    (0,inputs_address/* requireHttps */.xe)(url, value, rules);
    return url.href;
}
/** A ready token that ends before the run's budgets would: refused before any change. */
function checkTokenLifetime(login, watchdogMs, now = Date.now()) {
    if (login.kind !== 'token' || login.expiresAtMs === undefined)
        return;
    const at = new Date(login.expiresAtMs).toISOString();
    if (login.expiresAtMs <= now)
        throw new errors/* InputError */.dz(`access-token expired at ${at}: get a fresh token in the step before this one.`);
    const left = login.expiresAtMs - now;
    if (left < watchdogMs) {
        throw new errors/* InputError */.dz(`access-token expires at ${at}, in ${Math.floor(left / 60_000)} min, before the run's budgets end (${Math.ceil(watchdogMs / 60_000)} min, total-timeout-minutes): ` +
            'it is not renewed, so the deploy could lose its token halfway. Get a token that lives longer, lower total-timeout-minutes, or use token-url so the action renews it.');
    }
}

;// CONCATENATED MODULE: ./src/inputs/deploy.ts
// The deployment's inputs and the settings of the whole run: validated and returned typed. The password
// is registered as a secret by readInputs (before anything else is read), the GitHub token here.







/** Input names, as in action.yml. Workflows depend on them: never rename one. */
const Input = {
    ...inputs_address/* AddressInput */.NI,
    Username: 'username',
    Password: 'password',
    Distribution: 'distribution',
    DistributionId: 'distribution-id',
    FromEnvironment: 'from-environment',
    DistributionName: 'distribution-name',
    Environment: 'environment',
    EnvironmentUrl: 'environment-url',
    ConfigFiles: 'config-files',
    ForceDeploy: 'force-deploy',
    AllowOlderCommit: 'allow-older-commit',
    AllowUncheckedOrder: 'allow-unchecked-order',
    FollowDeploy: 'follow-deploy',
    DeployTimeoutMinutes: 'deploy-timeout-minutes',
    HealthUrl: 'health-url',
    HealthExpect: 'health-expect',
    HealthTimeoutMinutes: 'health-timeout-minutes',
    Rollback: 'rollback',
    RollbackOnSearch: 'rollback-on-search',
    DeployStrategy: 'deploy-strategy',
    DryRun: 'dry-run',
    MaxDistributionSize: 'max-distribution-mb',
    MaxDistributions: 'max-distributions',
    MaxAttempts: 'max-attempts',
    RequestTimeoutSeconds: 'request-timeout-seconds',
    TimeoutMinutes: 'total-timeout-minutes',
    BuildCommand: 'build-command',
    CompressionLevel: 'compression-level',
    GitHubToken: 'github-token'
};
/** max-distribution-mb is in MB of this size. */
const MB = 1024 * 1024;
function readCommonInputs(getInput) {
    return {
        dryRun: parseBoolean(Input.DryRun, getInput(Input.DryRun)),
        maxAttempts: parseMaxAttempts(getInput(Input.MaxAttempts)),
        requestTimeoutMs: parseInteger(Input.RequestTimeoutSeconds, getInput(Input.RequestTimeoutSeconds), 1, 3600) * 1000,
        timeoutMs: optional(Input.TimeoutMinutes, getInput(Input.TimeoutMinutes), (v) => Math.round(parseDecimal(Input.TimeoutMinutes, v, 0.01, 360) * 60_000))
    };
}
/** max-attempts: one rule for the cloud calls and the search check. */
function parseMaxAttempts(value) {
    return parseInteger(Input.MaxAttempts, value, 1, 20);
}
function parseDistributionName(value) {
    if (value === '')
        return undefined;
    if (!/\.(tar\.gz|tgz)$/i.test(value)) {
        throw new errors/* InputError */.dz(`distribution-name '${value}' must end with .tar.gz or .tgz, e.g. ${value}.tar.gz.`);
    }
    const problem = (0,distribution_name/* distributionNameProblem */.xT)(value);
    if (problem !== undefined) {
        throw new errors/* InputError */.dz(`distribution-name '${value}' must be a plain file name: ${problem}. For example myproject-1.2.0-distribution.tar.gz.`);
    }
    return value;
}
/** Edits (insert, delete, replace) that turn a into b: Levenshtein's distance. */
function editDistance(a, b) {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++)
            next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
        row = next;
    }
    return row[b.length] ?? 0;
}
/** The known value a near miss meant (another case, a separator, a typo of at most 2 edits); undefined when none is near. */
function closest(value, known) {
    const bare = (v) => v.toLowerCase().replace(/[-_ ]/g, '');
    let best;
    for (const k of known) {
        const distance = bare(value) === bare(k) ? 0 : editDistance(bare(value), bare(k));
        if (distance <= 2 && (best === undefined || distance < best.distance))
            best = { value: k, distance };
    }
    return best?.value;
}
/** The strategy values public clients send; Mission Control also offers rolling updates, whose API value is not public. */
const KNOWN_STRATEGIES = ['stopstart'];
function parseDeployStrategy(value, warn) {
    const strategy = value || action_metadata/* INPUT_DEFAULTS */.W[Input.DeployStrategy];
    if (!/^[a-z][a-z0-9-]*$/i.test(strategy)) {
        throw new errors/* InputError */.dz(`deploy-strategy '${strategy}' is not a strategy name; leave it empty for "${action_metadata/* INPUT_DEFAULTS */.W[Input.DeployStrategy]}".`);
    }
    const meant = closest(strategy, KNOWN_STRATEGIES);
    if (meant !== undefined && meant !== strategy) {
        throw new errors/* InputError */.dz(`deploy-strategy '${strategy}' is not a strategy the platform is known to take: did you mean ${meant}? Write deploy-strategy: ${meant}, or leave it empty for the default.`);
    }
    if (!KNOWN_STRATEGIES.includes(strategy)) {
        warn(`deploy-strategy '${strategy}' is not a value public clients send (they send ${KNOWN_STRATEGIES.join(', ')}). It is sent as given; the ` +
            'platform may refuse it only at the deploy, after the upload. Mission Control also offers rolling updates, whose API value is not public.');
    }
    return strategy;
}
/** Inputs that something else makes pointless: a warning, before any request, instead of silence. */
function warnIgnored(getInput, source, environment, warn) {
    const set = (name) => isSet(name, getInput(name));
    const notes = [];
    if (set(Input.EnvironmentUrl) && getInput(Input.GitHubToken) === '') {
        notes.push('environment-url is set but github-token is empty: it is shown only on a GitHub Deployment (set github-token: ${{ github.token }} with deployments: write)');
    }
    if (set(Input.HealthTimeoutMinutes) && getInput(Input.HealthUrl) === '')
        notes.push('health-timeout-minutes is set but health-url is empty: no health check runs');
    if (environment === undefined) {
        for (const name of [Input.DeployTimeoutMinutes, Input.FollowDeploy, Input.DeployStrategy, Input.EnvironmentUrl]) {
            if (set(name))
                notes.push(`${name} is set but environment is empty: nothing is deployed`);
        }
    }
    if (source.kind !== 'upload') {
        for (const name of [Input.DistributionName, Input.MaxDistributions, Input.CompressionLevel, Input.MaxDistributionSize]) {
            if (set(name))
                notes.push(`${name} is set but nothing is uploaded (the distribution comes from ${source.kind === 'id' ? Input.DistributionId : Input.FromEnvironment})`);
        }
    }
    for (const note of notes)
        warn(`${note}. It is ignored.`);
}
/** The one source of the distribution: exactly one of distribution, distribution-id and from-environment (checked by the caller to be set). */
function readSource(getInput) {
    const given = [];
    const distribution = getInput(Input.Distribution);
    const id = getInput(Input.DistributionId);
    const from = getInput(Input.FromEnvironment);
    if (distribution !== '')
        given.push({ kind: 'upload', input: distribution });
    if (id !== '') {
        if (/\.(tar\.gz|tgz|tar|gz|zip|jar|war)$/i.test(id)) {
            throw new errors/* InputError */.dz(`distribution-id '${id}' looks like a file name, not a distribution id: distribution-id takes the id the platform gave the distribution ` +
                `(the distribution-id output of the run that uploaded it, or the id Mission Control shows). To upload this file, set distribution: ${id} instead.`);
        }
        if (/[\s/\\?#%\p{Cc}]/u.test(id))
            throw new errors/* InputError */.dz(`distribution-id '${id}' is not a distribution id: copy the id exactly as the platform shows it (no spaces or slashes).`);
        given.push({ kind: 'id', id });
    }
    if (from !== '')
        given.push({ kind: 'environment', name: from });
    if (given.length > 1) {
        const meaning = {
            upload: `${Input.Distribution} to upload a build`,
            id: `${Input.DistributionId} to deploy a distribution already on the stack`,
            environment: `${Input.FromEnvironment} to deploy what another environment runs`
        };
        const names = given.map((g) => ({ upload: Input.Distribution, id: Input.DistributionId, environment: Input.FromEnvironment })[g.kind]);
        const set = names.length === 2 ? `${names[0] ?? ''} and ${names[1] ?? ''} are both set` : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''} are all set`;
        throw new errors/* InputError */.dz(`${set}, but they are alternatives: keep ${given.map((g) => meaning[g.kind]).join(', or ')}, and remove the other${names.length > 2 ? 's' : ''}.`);
    }
    return given[0];
}
/**
 * build-command runs without a shell, split into arguments as the runner splits them: only double quotes group.
 * `bash -c 'mvn package && cp ...'` would reach bash as the words `'mvn`, `package`, ... and fail with a bare
 * syntax error, so a single quote that opens an argument is refused here, with the command rewritten.
 */
function parseBuildCommand(value) {
    const command = value.trim();
    if (command === '')
        return undefined;
    if (opensWithSingleQuote(command)) {
        const rewritten = command.includes('"') ? '' : ` Write it as: ${command.replace(/'/g, '"')}`;
        throw new errors/* InputError */.dz(`build-command: ${command} groups words with single quotes, which only a shell understands. build-command runs without a shell, ` +
            `and only double quotes group arguments (as the runner splits them).${rewritten}`);
    }
    return command;
}
/** Whether an argument starts with ' outside double quotes (a backslash inside them escapes the next character). */
function opensWithSingleQuote(command) {
    let quoted = false;
    let atStart = true;
    for (let i = 0; i < command.length; i++) {
        const c = command[i];
        if (quoted && c === '\\')
            i++;
        else if (c === '"')
            quoted = !quoted;
        else if (!quoted && c === ' ') {
            atStart = true;
            continue;
        }
        else if (!quoted && atStart && c === "'")
            return true;
        atStart = false;
    }
    return false;
}
function parseConfigFiles(value) {
    const names = [];
    for (const raw of value.split(/[\n,]/)) {
        const name = raw.trim();
        if (name === '' || names.includes(name))
            continue;
        if (/\p{Cc}/u.test(name))
            throw new errors/* InputError */.dz(`config-files names '${name}', which contains a control character; write one name per line or separate them with commas.`);
        names.push(name);
    }
    return names;
}
function parseEnvironmentUrl(value) {
    if (value === '')
        return undefined;
    const url = (0,inputs_address/* parseAbsoluteUrl */.wS)(value, { input: Input.EnvironmentUrl, example: 'https://www.example.com', credentialsHint: 'It is only shown, never visited.' }, true);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new errors/* InputError */.dz(`environment-url '${value}' must start with https:// (for example https://www.example.com).`);
    return url.href;
}
function parseHealth(getInput) {
    const url = getInput(Input.HealthUrl);
    const expect = getInput(Input.HealthExpect);
    if (url === '') {
        if (expect !== '')
            throw new errors/* InputError */.dz('health-expect is set but health-url is empty: set health-url to the page that must contain it, e.g. https://www.example.com/version.txt.');
        return undefined;
    }
    const page = (0,inputs_address/* parsePageUrl */.sD)(url, {
        input: Input.HealthUrl,
        example: 'https://www.example.com/version.txt',
        credentialsHint: 'The health check sends no credentials: point it at a public page.'
    });
    const { origin, pathname } = new URL(page);
    return {
        url: page,
        shown: `${origin}${pathname}`,
        expect: expect === '' ? undefined : expect,
        timeoutMs: Math.round(parseDecimal(Input.HealthTimeoutMinutes, getInput(Input.HealthTimeoutMinutes), 0.01, 360) * 60_000)
    };
}
/** Inputs that act on an environment, refused without one rather than silently ignored. */
function needsEnvironment(getInput, source) {
    const set = [];
    if (source.kind === 'id')
        set.push(Input.DistributionId);
    if (source.kind === 'environment')
        set.push(Input.FromEnvironment);
    for (const name of [Input.ConfigFiles, Input.HealthUrl])
        if (getInput(name) !== '')
            set.push(name);
    for (const name of [Input.Rollback, Input.RollbackOnSearch, Input.ForceDeploy, Input.AllowOlderCommit, Input.AllowUncheckedOrder])
        if (parseBoolean(name, getInput(name)))
            set.push(`${name}: true`);
    if (set.length > 0) {
        throw new errors/* InputError */.dz(`${set.join(', ')} ${set.length === 1 ? 'needs' : 'need'} an environment to act on: set environment to the name of the environment to deploy to.`);
    }
}
/** `password` was read (and registered as a secret) by the caller, before anything else. */
function readDeployInputs(getInput, common, source, password, warn = () => undefined) {
    const address = (0,inputs_address/* resolveCloudAddress */.CI)({
        stack: getInput(Input.Stack),
        consoleUrl: getInput(Input.ConsoleUrl),
        platformDomain: getInput(Input.PlatformDomain),
        apiUrl: getInput(Input.ApiUrl)
    });
    const login = readLogin((name) => getInput(name), password);
    const environment = getInput(Input.Environment) || undefined;
    if (environment === undefined)
        needsEnvironment(getInput, source);
    if (source.kind === 'environment' && source.name === environment) {
        throw new errors/* InputError */.dz(`from-environment and environment are both '${environment}': promote from another environment (e.g. from-environment: acceptance, environment: production).`);
    }
    const deployStrategy = parseDeployStrategy(getInput(Input.DeployStrategy), warn);
    warnIgnored(getInput, source, environment, warn);
    const maxDistributions = getInput(Input.MaxDistributions);
    const githubToken = getInput(Input.GitHubToken);
    (0,secrets/* registerSecret */.cl)(githubToken);
    const rollback = parseBoolean(Input.Rollback, getInput(Input.Rollback));
    const rollbackOnSearch = parseBoolean(Input.RollbackOnSearch, getInput(Input.RollbackOnSearch));
    if (rollbackOnSearch && !rollback) {
        throw new errors/* InputError */.dz('rollback-on-search: true needs rollback: true: set rollback: true to roll back when a check fails, or leave rollback-on-search off.');
    }
    const allowOlderCommit = parseBoolean(Input.AllowOlderCommit, getInput(Input.AllowOlderCommit));
    if (allowOlderCommit && githubToken === '') {
        warn('allow-older-commit: true has no effect without github-token: the deploy order is checked only with a token (github-token: ${{ github.token }}).');
    }
    const allowUncheckedOrder = parseBoolean(Input.AllowUncheckedOrder, getInput(Input.AllowUncheckedOrder));
    if (allowUncheckedOrder && githubToken === '') {
        warn('allow-unchecked-order: true has no effect without github-token: the deploy order is checked only with a token (github-token: ${{ github.token }}).');
    }
    return {
        ...common,
        address,
        login,
        source,
        distribution: source.kind === 'upload' ? source.input : '',
        distributionName: parseDistributionName(getInput(Input.DistributionName)),
        environment,
        deployStrategy,
        maxDistributionBytes: parseInteger(Input.MaxDistributionSize, getInput(Input.MaxDistributionSize), 1, 1024 * 1024) * MB,
        maxDistributions: optional(Input.MaxDistributions, maxDistributions, (v) => parseInteger(Input.MaxDistributions, v, 1, 1000)),
        compressionLevel: parseInteger(Input.CompressionLevel, getInput(Input.CompressionLevel), 1, 9),
        buildCommand: parseBuildCommand(getInput(Input.BuildCommand)),
        githubToken: githubToken || undefined,
        environmentUrl: parseEnvironmentUrl(getInput(Input.EnvironmentUrl)),
        configFiles: parseConfigFiles(getInput(Input.ConfigFiles)),
        forceDeploy: parseBoolean(Input.ForceDeploy, getInput(Input.ForceDeploy)),
        allowOlderCommit,
        allowUncheckedOrder,
        followDeploy: parseBoolean(Input.FollowDeploy, getInput(Input.FollowDeploy)),
        deployTimeoutMs: Math.round(parseDecimal(Input.DeployTimeoutMinutes, getInput(Input.DeployTimeoutMinutes), 0.01, 360) * 60_000),
        health: parseHealth(getInput),
        rollback,
        rollbackOnSearch
    };
}

;// CONCATENATED MODULE: ./src/search/query.ts
// The search term `q`: its kinds and the service's limits on it. The rules that check and rewrite
// search-query before any request are input validation: normalizeQuery in src/inputs/search.ts.
/** The service refuses a q longer than this many characters. */
const MAX_QUERY_CHARS = 300;
/** The service refuses a q of more than this many words. */
const MAX_QUERY_WORDS = 30;

// EXTERNAL MODULE: ./src/search/request.ts
var request = __nccwpck_require__(4065);
// EXTERNAL MODULE: ./src/search/service.ts
var service = __nccwpck_require__(8363);
;// CONCATENATED MODULE: ./src/inputs/search.ts
// The search smoke check's inputs: read through a getter, validated before any request, returned typed.
// No check runs (undefined) when search-query is empty. The service's own facts (hosts, fields,
// limits) live in src/search/; what a user may write, and what is refused, lives here.









/** Input names, as in action.yml. Workflows depend on them: never rename one. */
const SearchInput = {
    Query: 'search-query',
    Type: 'search-type',
    AccountId: 'search-account-id',
    AuthKey: 'search-auth-key',
    DomainKey: 'search-domain-key',
    Environment: 'search-environment',
    BaseUrl: 'search-base-url',
    Fields: 'search-fields',
    Rows: 'search-rows',
    MinResults: 'search-min-results',
    TimeoutSeconds: 'search-timeout-seconds',
    Url: 'search-page-url',
    Uid: 'search-uid',
    WaitSeconds: 'search-wait-seconds'
};
/** `url` when neither search-page-url nor the repository is known. */
const DEFAULT_PAGE_URL = 'brcloud-deploy';
const QUERY = SearchInput.Query;
/** `*`, `?` and `~` are not wildcard or fuzzy operators for this service: it replaces them by spaces. */
const SPECIAL = /[*?~]/g;
function chars(text) {
    return [...text].length;
}
function words(text) {
    return text.split(/\s+/).filter((w) => w !== '').length;
}
function checkLimits(text, original) {
    const n = chars(text);
    if (n > MAX_QUERY_CHARS) {
        throw new errors/* InputError */.dz(`${QUERY} is ${n} characters long; the search service refuses a q over ${MAX_QUERY_CHARS} characters. ` +
            `Use a shorter keyword: a smoke check needs one or two words that your catalog surely matches.`);
    }
    const w = words(text);
    if (w > MAX_QUERY_WORDS) {
        throw new errors/* InputError */.dz(`${QUERY} has ${w} words${text === original ? '' : ' once rewritten'}; the search service refuses a q of more than ` +
            `${MAX_QUERY_WORDS} words. Use one or two words that your catalog surely matches.`);
    }
}
/**
 * Checks `q` and returns what to send. Throws an InputError for a value the service refuses
 * (empty, `?` or `~` alone, over the limits, a category id with non-ASCII letters).
 *
 * Rewrites as the service does: a leading `*` is dropped (`*shirt` -> `shirt`), and `*`, `?` and `~`
 * between terms become spaces (`red*shirt` -> `red shirt`). `*` alone (everything) and `.` alone pass.
 */
function normalizeQuery(value, type) {
    const original = value.trim();
    const warnings = [];
    if (original === '') {
        throw new errors/* InputError */.dz(`${QUERY} is empty; the search service answers an empty q with HTTP 400. Set a keyword (or a category id with search-type: category).`);
    }
    const control = /\p{Cc}/u.exec(original);
    if (control) {
        const code = control[0].codePointAt(0)?.toString(16).padStart(4, '0') ?? '';
        throw new errors/* InputError */.dz(`${QUERY} contains a control character (U+${code}); write the query on one line, as plain text.`);
    }
    if (type === 'category') {
        const letter = [...original].find((ch) => (ch.codePointAt(0) ?? 0) > 0x7f && /\p{L}/u.test(ch));
        if (letter !== undefined) {
            throw new errors/* InputError */.dz(`${QUERY} '${original}' is a category id with the non-ASCII letter '${letter}'; the search service does not support ` +
                `such category ids. Use the category's id from your catalog feed (ids are ASCII), not its display name.`);
        }
    }
    if (original === '?' || original === '~') {
        throw new errors/* InputError */.dz(`${QUERY} '${original}' alone is not allowed by the search service. Set a keyword, or * to match everything.`);
    }
    checkLimits(original, original);
    if (original === '*') {
        warnings.push(`${QUERY} '*' matches the whole catalog: its latency depends on catalog size and is outside the service's latency ` +
            `service level, so the latency measured here says little. Prefer a keyword your catalog surely matches.`);
        return { q: original, warnings };
    }
    if (original === '.' || !/[*?~]/.test(original))
        return { q: original, warnings };
    const q = original.replace(SPECIAL, ' ').replace(/\s+/g, ' ').trim();
    if (q === '') {
        throw new errors/* InputError */.dz(`${QUERY} '${original}' has nothing left to search for: the service treats *, ? and ~ as word separators. ` +
            `Set a keyword, or * alone to match everything.`);
    }
    checkLimits(q, original);
    warnings.push(`${QUERY} '${original}' is sent as '${q}': the search service has no wildcard or fuzzy operators and treats ` +
        `*, ? and ~ as word separators (a leading * is dropped).`);
    return { q, warnings };
}
// --- the other search inputs --------------------------------------------------------------------
/** Every missing key at once, so a user fixes them in one go. */
function missingKeys(get, authKey) {
    const missing = [
        get(SearchInput.AccountId).trim() === '' && `${SearchInput.AccountId} (the account id the search service gave you, e.g. 6001)`,
        authKey === '' &&
            `${SearchInput.AuthKey} (from a secret: \${{ secrets.BR_SEARCH_AUTH_KEY }}; if it is set and still empty, the secret is not available to this workflow)`,
        get(SearchInput.DomainKey).trim() === '' && `${SearchInput.DomainKey} (your site's domain key; the service refuses requests without it)`
    ].filter((m) => m !== false);
    if (missing.length < 2)
        return;
    throw new errors/* InputError */.dz(`${missing.length} search keys are required when ${SearchInput.Query} is set and missing: ${missing.join('; ')}.`);
}
/** A key or id the service gave: required while the check runs, and copied exactly. */
function serviceKey(name, value, why) {
    required(name, value, why, `when ${SearchInput.Query} is set`);
    if (/[\s\p{Cc}]/u.test(value)) {
        throw new errors/* InputError */.dz(`${name} contains white space or a control character; copy the value exactly as the search service gave it.`);
    }
    return value;
}
function parseType(value) {
    const v = orDefault(SearchInput.Type, value).toLowerCase();
    if (v === 'keyword' || v === 'category')
        return v;
    throw new errors/* InputError */.dz(`${SearchInput.Type} '${value}' is not a search type: write keyword (product search, the default) or category (q is a category id).`);
}
function parseEnvironment(value) {
    const v = orDefault(SearchInput.Environment, value).toLowerCase();
    if (v === 'production' || v === 'staging')
        return v;
    throw new errors/* InputError */.dz(`${SearchInput.Environment} '${value}' is not a search environment: write production (${service/* SEARCH_HOSTS */.J2.production}, the default) ` +
        `or staging (${service/* SEARCH_HOSTS */.J2.staging}), or set ${SearchInput.BaseUrl} to another host.`);
}
function parseSearchBaseUrl(value) {
    return (0,inputs_address/* parseBaseUrl */.Q2)(value, {
        input: SearchInput.BaseUrl,
        example: 'https://core.dxpapi.com',
        credentialsHint: `The search service takes its keys from ${SearchInput.AccountId}, ${SearchInput.AuthKey} and ${SearchInput.DomainKey}.`,
        queryHint: '; the keys have their own inputs',
        secret: 'the auth key',
        apiPath: /\/api(\/v1(\/core)?)?$/i,
        apiPathMessage: 'includes the API path: give the host only (the action adds /api/v1/core/)'
    });
}
function parseFields(value) {
    const list = orDefault(SearchInput.Fields, value);
    const fields = [];
    for (const raw of list.split(',')) {
        const field = raw.trim();
        if (field === '' || fields.includes(field))
            continue;
        if (!service/* REQUESTABLE_FIELDS */.el.includes(field)) {
            const near = service/* REQUESTABLE_FIELDS */.el.find((f) => f === field.toLowerCase());
            throw new errors/* InputError */.dz(`${SearchInput.Fields} names '${field}', which the search service does not return` +
                `${near ? ` (did you mean '${near}'? names are lower case)` : ''}. Use a comma-separated list of: ${service/* REQUESTABLE_FIELDS */.el.join(', ')}.`);
        }
        fields.push(field);
    }
    if (fields.length === 0) {
        throw new errors/* InputError */.dz(`${SearchInput.Fields} '${value}' names no field. Leave it empty for ${action_metadata/* INPUT_DEFAULTS */.W[SearchInput.Fields]}, or list some of: ${service/* REQUESTABLE_FIELDS */.el.join(', ')}.`);
    }
    const warnings = fields.includes('pid') ? [] : [`${SearchInput.Fields} does not include pid; the search service expects fl to name it.`];
    return { fields, warnings };
}
function parsePageUrl(value, repository) {
    if (value === '')
        return repository ? `https://github.com/${repository}` : DEFAULT_PAGE_URL;
    if (/\p{Cc}/u.test(value))
        throw new errors/* InputError */.dz(`${SearchInput.Url} contains a control character; write one address or app name on one line.`);
    return value;
}
/** A bare uid: letters and digits, as in the documented forms (13 digits in a browser cookie). */
const BARE_UID = /^[A-Za-z0-9]{1,64}$/;
/** A whole `_br_uid_2` value, unencoded: uid, v, ts and hc, in this order. */
const COOKIE_UID = /^uid=[A-Za-z0-9]{1,64}:v=[A-Za-z0-9._-]{1,32}:ts=\d{1,20}:hc=\d{1,10}$/;
/** The value percent-decoded once, or undefined when it holds no escape (or a broken one). */
function decodedOnce(value) {
    if (!/%[0-9A-Fa-f]{2}/.test(value))
        return undefined;
    try {
        return decodeURIComponent(value);
    }
    catch {
        return undefined;
    }
}
/** `_br_uid_2`: search-uid as given, or derived from the repository so that every run is the same visitor. */
function parseUid(value, repository) {
    if (value === '')
        return (0,request/* appBrUid */._N)((0,request/* stableUid */.Mn)(repository || DEFAULT_PAGE_URL));
    if (BARE_UID.test(value))
        return (0,request/* appBrUid */._N)(value);
    if (COOKIE_UID.test(value))
        return value;
    // A cookie value copied from a browser is stored percent-encoded once (uid%3D…%3Av%3D…): decoded here, encoded once on the wire.
    const decoded = decodedOnce(value);
    if (decoded !== undefined && COOKIE_UID.test(decoded))
        return decoded;
    const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
    throw new errors/* InputError */.dz(`${SearchInput.Uid} ${shown} is not a visitor id. Write either a bare uid of letters and digits (e.g. 7797686432023) or a whole ` +
        `_br_uid_2 value uid=<id>:v=<version>:ts=<number>:hc=<number> (e.g. uid=7797686432023:v=app:ts=0:hc=1), or leave it empty ` +
        `for one derived from the repository.`);
}
/**
 * Search inputs the user set (other than search-query). A runner sets every input that has a default,
 * so a value equal to action.yml's default says nothing about the user's intent: it is ignored.
 */
function otherSearchInputs(get) {
    return Object.values(SearchInput).filter((name) => name !== SearchInput.Query && isSet(name, get(name).trim()));
}
/**
 * Reads and validates the search inputs. Returns undefined when search-query is empty (no check).
 * Throws an InputError, before any request, for every value the check or the service would refuse.
 * The auth key is registered as a secret the moment it is read, whether or not the check runs.
 */
function parseSearchConfig(get, context = {}) {
    const rawKey = get(SearchInput.AuthKey);
    (0,secrets/* registerSecret */.cl)(rawKey);
    const authKey = rawKey.trim();
    (0,secrets/* registerSecret */.cl)(authKey);
    const originalQuery = get(SearchInput.Query).trim();
    if (originalQuery === '') {
        const set = otherSearchInputs(get);
        if (set.length > 0)
            context.warn?.(`${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but search-query is empty: no search check runs.`);
        return undefined;
    }
    const type = parseType(get(SearchInput.Type).trim());
    const { q, warnings } = normalizeQuery(originalQuery, type);
    missingKeys(get, authKey);
    const accountId = serviceKey(SearchInput.AccountId, get(SearchInput.AccountId).trim(), 'set it to the account id the search service gave you (for example 6001).');
    serviceKey(SearchInput.AuthKey, authKey, 'set it from a secret (search-auth-key: ${{ secrets.BR_SEARCH_AUTH_KEY }}); if it is set and still empty, the secret is not available to this workflow.');
    const domainKey = serviceKey(SearchInput.DomainKey, get(SearchInput.DomainKey).trim(), "set it to your site's domain key; the service refuses requests without it.");
    const environment = parseEnvironment(get(SearchInput.Environment).trim());
    const baseInput = get(SearchInput.BaseUrl).trim();
    const baseUrl = baseInput === '' ? service/* SEARCH_HOSTS */.J2[environment] : parseSearchBaseUrl(baseInput);
    const fields = parseFields(get(SearchInput.Fields).trim());
    warnings.push(...fields.warnings);
    const timeoutSeconds = parseInteger(SearchInput.TimeoutSeconds, get(SearchInput.TimeoutSeconds).trim(), service/* SEARCH_LIMITS */.wA.minTimeoutSeconds, service/* SEARCH_LIMITS */.wA.maxTimeoutSeconds);
    const config = {
        query: q,
        originalQuery,
        type,
        accountId,
        authKey,
        domainKey,
        environment,
        baseUrl,
        baseUrlSource: baseInput === '' ? 'search-environment' : 'search-base-url',
        fields: fields.fields,
        rows: parseInteger(SearchInput.Rows, get(SearchInput.Rows).trim(), 1, service/* SEARCH_LIMITS */.wA.maxRows),
        minResults: parseInteger(SearchInput.MinResults, get(SearchInput.MinResults).trim(), 0, Number.MAX_SAFE_INTEGER),
        timeoutMs: timeoutSeconds * 1000,
        pageUrl: parsePageUrl(get(SearchInput.Url).trim(), context.repository),
        brUid: parseUid(get(SearchInput.Uid).trim(), context.repository),
        maxAttempts: parseMaxAttempts(get(Input.MaxAttempts).trim()),
        waitMs: parseInteger(SearchInput.WaitSeconds, get(SearchInput.WaitSeconds).trim(), 0, service/* SEARCH_LIMITS */.wA.maxWaitSeconds) * 1000,
        warnings
    };
    checkRequestSize(config);
    return config;
}
/** Refuses a configuration whose request would be over the service's 16 KB limit (it would answer 414). */
function checkRequestSize(config) {
    const built = (0,request/* buildSearchRequest */.CG)({
        accountId: config.accountId,
        authKey: config.authKey,
        domainKey: config.domainKey,
        brUid: config.brUid,
        pageUrl: config.pageUrl,
        type: config.type,
        q: config.query,
        fields: config.fields,
        rows: config.rows,
        start: 0,
        requestId: (0,request/* newRequestId */.H4)()
    }, 
    // Room for the transport's own headers and a cookie the service may set.
    { baseUrl: config.baseUrl, headers: { 'user-agent': 'x'.repeat(64), accept: 'application/json', cookie: 'x'.repeat(512) } });
    if (built.bytes <= request/* MAX_REQUEST_BYTES */.rO)
        return;
    const sizes = [
        [SearchInput.Url, Buffer.byteLength(encodeURIComponent(config.pageUrl))],
        [SearchInput.Query, Buffer.byteLength(encodeURIComponent(config.query))],
        [SearchInput.AccountId, Buffer.byteLength(encodeURIComponent(config.accountId))],
        [SearchInput.AuthKey, Buffer.byteLength(encodeURIComponent(config.authKey))],
        [SearchInput.DomainKey, Buffer.byteLength(encodeURIComponent(config.domainKey))]
    ];
    sizes.sort((a, b) => b[1] - a[1]);
    const [largest, size] = sizes[0] ?? ['', 0];
    throw new errors/* InputError */.dz(`The search request would be ${built.bytes} bytes, over the service's limit of ${request/* MAX_REQUEST_BYTES */.rO} bytes (it answers HTTP 414). ` +
        `${largest} takes ${size} bytes once encoded: shorten it.`);
}

;// CONCATENATED MODULE: ./src/inputs/budget.ts
// The watchdog's budget (total-timeout-minutes): the run's own limits added up, so that the watchdog never
// cuts a rollback short. Empty: derived from them; an explicit value that cannot hold them is refused
// before any request, with the numbers.

/** Room for building, packing and uploading, which have no budget of their own. */
const MARGIN_MS = 10 * 60_000;
/** The run's own limits, named as the inputs that set them. */
function budgetParts(deploy, search) {
    const parts = [];
    if (deploy?.environment !== undefined && !deploy.dryRun) {
        parts.push(['deploy-timeout-minutes', deploy.deployTimeoutMs]);
        if (deploy.health)
            parts.push(['health-timeout-minutes', deploy.health.timeoutMs]);
        if (deploy.rollback) {
            // A rollback after "not applied in time" first waits for that deploy to finish, then gets its own switch.
            parts.push(['deploy-timeout-minutes (rollback: the deploy in progress)', deploy.deployTimeoutMs]);
            parts.push(['deploy-timeout-minutes (rollback)', deploy.deployTimeoutMs]);
            if (deploy.health)
                parts.push(['health-timeout-minutes (rollback)', deploy.health.timeoutMs]);
        }
    }
    // The search check: its wait window, plus its last call's own limit.
    if (search)
        parts.push(['search-wait-seconds + search-timeout-seconds', search.waitMs + search.timeoutMs]);
    return parts;
}
const minutes = (ms) => `${+(ms / 60_000).toFixed(2)}`;
/** The watchdog's limit in ms: total-timeout-minutes, or the budgets plus a margin when it is empty. */
function watchdogMs(common, deploy, search) {
    const parts = budgetParts(deploy, search);
    const needed = parts.reduce((sum, [, ms]) => sum + ms, 0);
    if (common.timeoutMs === undefined)
        return needed + MARGIN_MS;
    if (common.timeoutMs < needed) {
        const sum = parts.map(([name, ms]) => `${name} ${minutes(ms)}`).join(' + ');
        throw new errors/* InputError */.dz(`total-timeout-minutes (${minutes(common.timeoutMs)}) cannot hold the run's own budgets: ${sum} = ${minutes(needed)} min, so the watchdog would cut ` +
            `${deploy?.rollback ? 'a rollback' : 'the deploy'} short. Set total-timeout-minutes to at least ${Math.ceil((needed + MARGIN_MS) / 60_000)} ` +
            `(the budgets plus ${minutes(MARGIN_MS)} minutes to build and upload), leave it empty to derive it, or lower those budgets.`);
    }
    return common.timeoutMs;
}

;// CONCATENATED MODULE: ./src/inputs/index.ts
// The one place that reads the action's inputs. Everything is validated here, before any request,
// and turned into one typed, read-only object; an invalid value throws an InputError that says how
// to fix it. One module per group: parsers (shared rules), address, deploy (with the run's common
// settings) and search. Defaults come from action.yml through the generated src/action-metadata.ts.










// isLoopbackHost has one home, ./address.js: import it from there.






/** Inputs renamed before the first release: the old name still works, with a warning, when the new one is not set. */
const RENAMED = {
    'timeout-minutes': 'total-timeout-minutes',
    'search-url': 'search-page-url',
    'max-distribution-size': 'max-distribution-mb'
};
/** A reader that takes a renamed input's old name when the new one is empty or its default (a runner sets defaults itself). */
function withRenamedInputs(getInput, warn) {
    const warned = new Set();
    return (name, options) => {
        const value = getInput(name, options);
        const old = Object.keys(RENAMED).find((o) => RENAMED[o] === name);
        if (old === undefined || isSet(name, value))
            return value;
        const legacy = getInput(old, options);
        if (legacy === '')
            return value;
        if (!warned.has(old))
            warn(`The input ${old} is now called ${name}: rename it in your workflow (the old name still works for now).`);
        warned.add(old);
        return legacy;
    };
}
/**
 * Every required input of a deploying run that is missing, named at once: a user learns them in one run,
 * not one a run. One missing input is left to the rule that owns it, which says more about it.
 */
function missingRequired(getInput) {
    const empty = (name) => getInput(name).trim() === '';
    const noSource = empty(Input.Distribution) && empty(Input.DistributionId) && empty(Input.FromEnvironment);
    if (noSource && !empty(SearchInput.Query))
        return; // a search check alone: no deployment inputs are needed
    // Any single sign-on input set: the login's own rules say what is missing or misplaced, more precisely.
    const ssoLogin = [
        LoginInput.TokenUrl,
        LoginInput.AccessToken,
        LoginInput.ClientId,
        LoginInput.ClientSecret,
        LoginInput.OidcAudience,
        LoginInput.Audience,
        LoginInput.Scope
    ].some((name) => !empty(name));
    const missing = [
        empty(inputs_address/* AddressInput */.NI.Stack) && empty(inputs_address/* AddressInput */.NI.ConsoleUrl) && empty(inputs_address/* AddressInput */.NI.ApiUrl) && 'stack (or console-url, or api-url): the stack to deploy to',
        !ssoLogin && empty(LoginInput.Username) && 'username: the Bloomreach Cloud user that deploys, from a secret',
        !ssoLogin && getInput(LoginInput.Password, { trimWhitespace: false }) === '' && 'password: from a secret (forks and Dependabot runs get no secrets)',
        noSource &&
            'distribution (or distribution-id, or from-environment): the .tar.gz your build produced, e.g. target/*-distribution.tar.gz, or a directory to pack'
    ].filter((m) => m !== false);
    if (missing.length < 2)
        return;
    throw new errors/* InputError */.dz(`${missing.length} required inputs are missing: ${missing.join('; ')}. (On a stack with single sign-on, set token-url or access-token instead of username and password.)`);
}
function readInputs(read = port/* getInput */.V4) {
    const getInput = withRenamedInputs(read, (m) => port/* warning */.$e(m));
    missingRequired(getInput);
    // Mask every secret the moment it is known, before anything could print it. The password is not
    // trimmed: it may legitimately begin or end with a space.
    const password = getInput(Input.Password, { trimWhitespace: false });
    (0,secrets/* registerSecret */.cl)(password);
    (0,secrets/* registerSecret */.cl)(getInput(LoginInput.ClientSecret));
    (0,secrets/* registerSecret */.cl)(getInput(LoginInput.AccessToken));
    const search = parseSearchConfig((name) => getInput(name), { repository: port/* runContext */.pO().repository || undefined, warn: (m) => port/* warning */.$e(m) });
    const common = readCommonInputs(getInput);
    const source = readSource(getInput);
    if (source === undefined && search)
        return { common, watchdogMs: watchdogMs(common, undefined, search), deploy: undefined, search };
    if (source === undefined) {
        throw new errors/* InputError */.dz(`Input ${Input.Distribution} is required: point it at the .tar.gz your build produced (e.g. target/*-distribution.tar.gz) or at a ` +
            'directory to pack, or set distribution-id or from-environment to deploy a distribution already on the stack. ' +
            '(To run only the search check, set search-query and leave distribution empty.)');
    }
    const deploy = readDeployInputs(getInput, common, source, password, (m) => port/* warning */.$e(m));
    const limit = watchdogMs(common, deploy, search);
    checkTokenLifetime(deploy.login, limit);
    return { common, watchdogMs: limit, deploy, search };
}


/***/ }),

/***/ 8676:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $e: () => (/* binding */ warning),
/* harmony export */   C1: () => (/* binding */ setFailed),
/* harmony export */   LZ: () => (/* binding */ saveState),
/* harmony export */   Os: () => (/* binding */ group),
/* harmony export */   Pq: () => (/* binding */ setSecret),
/* harmony export */   Sy: () => (/* binding */ writeSummary),
/* harmony export */   V4: () => (/* binding */ getInput),
/* harmony export */   V9: () => (/* binding */ getIDToken),
/* harmony export */   Yz: () => (/* binding */ debug),
/* harmony export */   lm: () => (/* binding */ notice),
/* harmony export */   ny: () => (/* binding */ usePort),
/* harmony export */   pO: () => (/* binding */ runContext),
/* harmony export */   pq: () => (/* binding */ info),
/* harmony export */   uH: () => (/* binding */ setOutput)
/* harmony export */ });
/* unused harmony exports error, isDebug, getState */
// The engine's one door to whatever runs it (issue 30: one engine, two faces). The release code reads its
// inputs, writes its log, outputs, summary and saved state, and masks secrets through this port and
// nothing else: the GitHub Action's face (src/action/port.ts) maps it to @actions/core, a CLI face to
// argv, the environment, stdout, stderr and files. The face installs its port once, before the run,
// with usePort(); engine modules `import * as core from './port.js'` and call the same names as before.
// Signals are not here: run() takes them as its RunHost (src/main.ts), which the face passes.
let installed;
/** Installs the face's port: every engine call after this goes to it. */
function usePort(port) {
    installed = port;
}
function port() {
    if (installed === undefined)
        throw new Error('No port is installed: the face calls usePort() before it runs the engine.');
    return installed;
}
// The engine's calls, each looked up on the installed port when made, so a module may keep one (say: core.info).
const getInput = (name, options) => port().getInput(name, options);
const setOutput = (name, value) => port().setOutput(name, value);
const info = (message) => port().info(message);
const warning = (message) => port().warning(message);
const error = (message) => port().error(message);
const notice = (message) => port().notice(message);
const debug = (message) => port().debug(message);
const isDebug = () => port().isDebug();
const group = (name, fn) => port().group(name, fn);
const setSecret = (secret) => port().setSecret(secret);
const writeSummary = (markdown) => port().writeSummary(markdown);
const saveState = (name, value) => port().saveState(name, value);
const getState = (name) => port().getState(name);
const setFailed = (message) => port().setFailed(message);
const getIDToken = (audience) => port().getIDToken(audience);
const runContext = () => port().runContext();


/***/ }),

/***/ 665:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Nk: () => (/* binding */ searchLabel),
/* harmony export */   dH: () => (/* binding */ deployedWord),
/* harmony export */   z8: () => (/* binding */ report)
/* harmony export */ });
/* unused harmony exports OUTPUTS, outputValues, notices, headline, summaryMarkdown */
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(8676);
/* harmony import */ var _deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(350);
/* harmony import */ var _deploy_look_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(9392);
/* harmony import */ var _deploy_order_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(5222);
/* harmony import */ var _github_client_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6584);
/* harmony import */ var _format_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(6264);
/* harmony import */ var _run_state_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(518);
// What the user sees at the end, derived from the results of the run's steps and nothing else: the
// outputs (one table, OUTPUTS), the notices, and the job summary.








/**
 * Every output of action.yml and how it is derived (undefined: not set). The type makes this table
 * name each output exactly once; a test checks it against action.yml. Workflows depend on the names.
 */
const OUTPUTS = {
    'cloud-api-url': ({ deploy }) => deploy?.apiUrl,
    'distribution-id': ({ deploy }) => (deploy?.dryRun ? undefined : deploy?.distributionId),
    'distribution-name': ({ deploy }) => deploy?.upload?.storedName ?? acceptedArchive(deploy)?.name ?? deploy?.knownName,
    'distribution-size': ({ deploy }) => acceptedArchive(deploy)?.size,
    'distribution-sha256': ({ deploy }) => acceptedArchive(deploy)?.sha256,
    'environment-id': ({ deploy }) => (deployedWord(deploy) === 'false' || deployedWord(deploy) === undefined ? undefined : deploy?.environmentId),
    'pruned-distributions': ({ deploy }) => (deploy?.dryRun && deploy.wouldPrune !== undefined ? 0 : deploy?.pruned),
    'distribution-reused': ({ deploy }) => (deploy?.reused === undefined ? undefined : String(deploy.reused)),
    'previous-distribution-id': ({ deploy }) => deploy?.previousDistributionId,
    deployed: ({ deploy }) => deployedWord(deploy),
    'rolled-back': ({ deploy }) => (deployedWord(deploy) === 'true' || deployedWord(deploy) === 'unknown' ? rolledBackWord(deploy?.release) : undefined),
    'release-state': ({ deploy }) => deploy?.release?.state,
    'environment-distribution-id': ({ deploy }) => (deploy?.finalLook && !('error' in deploy.finalLook) ? deploy.finalLook.distributionId : undefined),
    'running-commit': ({ deploy }) => deploy?.order?.running?.sha,
    order: ({ deploy }) => deploy?.order?.order,
    'search-num-found': ({ search }) => search?.numFound,
    'search-latency-ms': ({ search }) => search?.latencyMs,
    'search-request-id': ({ search }) => search?.requestId
};
/**
 * The archive, when the outputs may describe it: the platform accepted its upload, an identical one was reused,
 * or a dry run says what it would upload. Never for an upload that was refused, unconfirmed or not reached.
 */
function acceptedArchive(deploy) {
    return deploy?.upload || deploy?.reused || deploy?.dryRun ? deploy.archive : undefined;
}
/**
 * Whether this run's deploy was carried out, as observed: 'true' once the platform accepted it (or a look
 * showed it), 'unknown' when a request went out that no answer or look settled, 'false' when none went out.
 */
function deployedWord(deploy) {
    const release = deploy?.release;
    if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .wasRequested */ .mn)(release))
        return 'true';
    if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .mayHaveBeenRequested */ .uJ)(release))
        return release && !release.redeploy && lastLookShows(deploy, release.distributionId) ? 'true' : 'unknown';
    return deploy?.skipped || release ? 'false' : undefined;
}
/** 'true' once the rollback was seen applied; 'unknown' when one was requested (or may have been) but not seen applied; else 'false'. */
function rolledBackWord(release) {
    if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .rolledBack */ .EN)(release))
        return 'true';
    return release && ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-requested') || release.rollbackUnconfirmed !== undefined) ? 'unknown' : 'false';
}
/** The last look at the environment reported that id. */
function lastLookShows(deploy, id) {
    const look = deploy?.finalLook;
    return look !== undefined && !('error' in look) && (0,_deploy_look_js__WEBPACK_IMPORTED_MODULE_4__/* .sameId */ .s)(look.distributionId, id);
}
function outputValues(run) {
    const values = {};
    for (const [name, derive] of Object.entries(OUTPUTS)) {
        const value = derive(run);
        if (value !== undefined && value !== '')
            values[name] = String(value);
    }
    return values;
}
/** How the summary and the notice name the search query. */
function searchLabel(search) {
    return search.type === 'category' ? `category '${search.originalQuery}'` : `'${search.originalQuery}'`;
}
/** The notices of a run: one for each step that finished. */
function notices(run) {
    const lines = [];
    const d = run.deploy;
    if (d?.completed) {
        const what = named(d);
        if (d.dryRun) {
            const then = d.environmentName ? ` and deploy it to '${d.environmentName}' (${d.environmentId ?? '?'}) with strategy ${d.strategy}` : '';
            const head = d.archive && !d.reused
                ? `Dry run: would upload ${d.archive.name} (${(0,_format_js__WEBPACK_IMPORTED_MODULE_5__/* .formatBytes */ .z3)(d.archive.size)}) to ${d.apiUrl}${then}.`
                : `Dry run: would use distribution ${d.distributionId ?? '?'} (${sourceText(d)})${then}.`;
            // The plan is in the log as it was made, and in the summary: the notice points there, not a third copy.
            lines.push(`${head} Nothing was changed.${d.plan.length > 0 ? ' The whole plan: the log above, and the job summary.' : ''}`);
        }
        else if (d.skipped) {
            lines.push(`'${d.environmentName ?? ''}' already runs ${what} on ${d.target}: nothing deployed. Set force-deploy: true to deploy it again.`);
        }
        else if (d.release) {
            const verified = (0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(d.release, 'verified');
            const how = verified ? `verified: ${verified.evidence}` : `not verified: ${unobserved(d).join('; ')}`;
            lines.push(`Deployed ${what} to '${d.environmentName ?? ''}' on ${d.target}; ${how}.`);
        }
        else if (d.upload) {
            lines.push(`Uploaded ${what} to ${d.target}; no environment given, so nothing was deployed.`);
        }
        else if (d.reused) {
            lines.push(`${what} is already on ${d.target}: nothing uploaded${d.environmentName ? '' : ', and no environment given, so nothing deployed'}.`);
        }
    }
    const s = run.search;
    if (s?.passed)
        lines.push(`Search check passed: ${searchLabel(s)} found ${s.numFound ?? 0} result(s) in ${s.latencyMs ?? '?'} ms.`);
    return lines;
}
/** "name.tar.gz (id)", or just the id when the name is not known: never the same thing twice. */
function named(d) {
    const name = d.upload?.storedName ?? d.archive?.name ?? d.knownName;
    const id = d.distributionId;
    if (name === undefined || name === id)
        return id ?? 'the distribution';
    return id === undefined ? name : `${name} (${id})`;
}
/** Where the deployed distribution came from, in words. */
function sourceText(d) {
    if (d.source === 'id')
        return 'given by distribution-id';
    if (d.source === 'environment')
        return `what '${d.fromEnvironment ?? '?'}' runs`;
    if (d.reused)
        return 'an identical one already on the stack, reused';
    return d.upload ? 'uploaded' : 'not uploaded';
}
function cell(value) {
    return value === undefined || value === '' ? '—' : value.replace(/\|/g, '\\|');
}
function table(rows, heading) {
    const lines = [`| ${heading} | |`, '|---|---|'];
    for (const [k, v] of rows)
        if (v !== undefined)
            lines.push(`| ${k} | ${cell(v)} |`);
    return lines;
}
/** ", stored as `x`" when the platform stored the distribution under another name than ours. */
function storedAs(d) {
    const stored = d?.upload?.storedName;
    return stored !== undefined && stored !== d?.archive?.name ? `, stored as \`${stored}\`` : '';
}
/**
 * The environment, as far as the run got: its id once the platform listed it, the name alone when it was given but
 * never resolved (refused inputs, an address that failed, a name the stack does not list), "upload only" only for a
 * deployment that ran without one.
 */
function environmentCell(d, given) {
    const name = d?.environmentName ?? given;
    if (name)
        return d?.environmentId ? `${name} (\`${d.environmentId}\`)` : `${name} (not resolved to an id)`;
    return d ? '— (upload only)' : '— (none given)';
}
function deploymentRows(d, given) {
    const archive = d?.archive;
    const uploadText = d?.upload
        ? `uploaded in ${d.upload.attempts} attempt(s)${d.upload.adopted ? ' (answer lost; the stored upload was adopted, no duplicate)' : ''}`
        : d?.reused
            ? 'not needed: an identical distribution is on the stack'
            : d?.dryRun
                ? undefined
                : d?.uploadUnconfirmed
                    ? `sent, not confirmed: its answer was lost and no stored copy could be looked up; the stack may hold \`${archive?.name ?? ''}\``
                    : 'not uploaded';
    return [
        ['API address', d?.apiUrl ?? '—'],
        ['Distribution', archive ? `\`${archive.name}\`${archive.source === 'packed' ? ' (packed from a directory)' : ''}${storedAs(d)}` : d ? sourceText(d) : '—'],
        ['Upload', archive ? uploadText : undefined],
        ['Distribution id', d?.distributionId ? `\`${d.distributionId}\`` : '—'],
        ['Size', archive ? `${(0,_format_js__WEBPACK_IMPORTED_MODULE_5__/* .formatBytes */ .z3)(archive.size)} (${archive.size} bytes)` : d?.source === 'upload' || !d ? '—' : undefined],
        ['SHA-256', archive?.sha256 ? `\`${archive.sha256}\`` : d?.source === 'upload' || !d ? '—' : undefined],
        ['Environment', environmentCell(d, given)],
        ['Strategy', d?.environmentName ? d.strategy : undefined],
        ['Config files', d?.configFiles.length ? d.configFiles.map((n) => `\`${n}\``).join(', ') : undefined],
        ['Previous distribution', d?.previousDistributionId ? `\`${d.previousDistributionId}\`` : undefined],
        ...orderRows(d),
        ['Pruned distributions', d?.dryRun && d.wouldPrune !== undefined ? `would delete ${d.wouldPrune}` : d?.pruned === undefined ? undefined : String(d.pruned)],
        ['Token renewals', String(d?.tokenRenewals ?? 0)]
    ];
}
/** The deploy order: how our commit relates to the one the environment ran, and the commit before and after, linked. */
function orderRows(d) {
    const check = d?.order;
    if (d === undefined || check === undefined)
        return [];
    const link = (sha) => sha === undefined ? undefined : check.repoUrl ? `[\`${(0,_github_client_js__WEBPACK_IMPORTED_MODULE_2__/* .short */ .h0)(sha)}\`](${check.repoUrl}/commit/${sha})` : `\`${(0,_github_client_js__WEBPACK_IMPORTED_MODULE_2__/* .short */ .h0)(sha)}\``;
    const look = d.finalLook;
    const after = look === undefined || 'error' in look || look.distributionId === undefined
        ? undefined
        : (0,_deploy_look_js__WEBPACK_IMPORTED_MODULE_4__/* .sameId */ .s)(look.distributionId, d.distributionId)
            ? check.ours?.sha
            : (0,_deploy_look_js__WEBPACK_IMPORTED_MODULE_4__/* .sameId */ .s)(look.distributionId, check.runningDistributionId)
                ? check.running?.sha
                : undefined;
    const before = check.running ? `${link(check.running.sha) ?? ''} (${(0,_deploy_order_js__WEBPACK_IMPORTED_MODULE_1__/* .evidence */ .MX)(check.running)})` : undefined;
    return [
        ['Deploy order', `${check.order}: ${orderText(check)}`],
        ['Commit before', before],
        ['Commit after', check.ours || check.running ? (link(after) ?? 'not known') : undefined]
    ];
}
function orderText(check) {
    const c = check.comparison;
    if (check.order === 'unknown')
        return check.why ?? 'no evidence';
    if (check.order === 'identical')
        return 'the same commit';
    if (check.order === 'ahead')
        return `newer by ${c?.aheadBy ?? '?'} commit(s)`;
    if (check.order === 'behind')
        return `older by ${c?.behindBy ?? '?'} commit(s)`;
    return `another branch (${c?.aheadBy ?? '?'} ahead, ${c?.behindBy ?? '?'} behind)`;
}
function searchRows(s) {
    const query = s.query === s.originalQuery ? `\`${s.query}\`` : `\`${s.query}\` (written as \`${s.originalQuery}\`)`;
    return [
        ['Result', s.passed ? '✅ Passed' : `❌ ${s.failure ?? 'Failed'}`],
        ['Query', `${query}, ${s.type} search`],
        ['Endpoint', s.endpoint],
        ['Results found', s.numFound === undefined ? '—' : `${s.numFound} (at least ${s.minResults} wanted)`],
        ['Latency', s.latencyMs === undefined ? '—' : `${s.latencyMs} ms`],
        ['Attempts', String(s.attempts)],
        ['Request id', s.requestId ? `\`${s.requestId}\`` : '—'],
        [
            'Facet format',
            s.facetFormat === 'none'
                ? 'none returned'
                : `${s.facetFormat === 'v3' ? 'V3 (facet_counts.facets)' : 'legacy (facet_fields/facet_ranges)'}${s.facetNames.length ? `: ${s.facetNames.join(', ')}` : ''}`
        ],
        ['Keyword redirect', s.keywordRedirect ? (s.keywordRedirect.redirectedUrl ?? s.keywordRedirect.redirectedQuery ?? 'yes') : undefined],
        ['First results', s.titles.length ? s.titles.join('<br>') : undefined]
    ];
}
/** What the environment reported at the last look, in the summary's words. */
function atTheEnd(d) {
    const look = d.finalLook;
    if (look === undefined)
        return 'was not looked at when the step ended';
    if ('error' in look)
        return 'could not be looked at when the step ended';
    return look.distributionId ? `reports \`${look.distributionId}\` at the end` : 'reports no distribution at the end';
}
/** "commit `abc1234` is older than `def5678`": a refusal by the deploy order, in the headline's words. */
function olderThan(check) {
    const sha = (c) => `\`${(0,_github_client_js__WEBPACK_IMPORTED_MODULE_2__/* .short */ .h0)(c?.sha ?? '?')}\``;
    return `commit ${sha(check.ours)} is older than ${sha(check.running)}`;
}
/** The outcome in one line, as observed. */
function headline(r) {
    const d = r.deploy;
    const release = d?.release;
    const env = `'${d?.environmentName ?? ''}'`;
    const id = `\`${d?.distributionId ?? '?'}\``;
    if (r.error && (r.stopped === 'cancel' || r.stopped === 'terminate'))
        return cancelled(d, env, id);
    if (r.error) {
        if (d === undefined) {
            // No deployment began; a search check may still have sent its requests.
            if (r.search)
                return r.search.passed ? '❌ Failed after the search check passed' : '❌ Search check failed';
            return '❌ Failed before anything was done';
        }
        if (release?.state === 'replaced')
            return `❌ Replaced by another deploy: ${env} ${atTheEnd(d)}; nothing was rolled back`;
        if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .rolledBack */ .EN)(release))
            return `❌ Failed and rolled back: ${env} ${atTheEnd(d)}`;
        if (deployedWord(d) === 'true')
            return `❌ Failed: ${env} ${atTheEnd(d)}`;
        if (deployedWord(d) === 'unknown')
            return `❌ Failed: the deploy of ${id} may have been carried out (no answer or look settled it); ${env} ${atTheEnd(d)}`;
        if (d.order?.refused && d.order.order === 'unknown')
            return `❌ Refused: the deploy order on ${env} could not be checked (GitHub could not be read); nothing was deployed`;
        if (d.order?.refused)
            return `❌ Refused: ${olderThan(d.order)}, which ${env} runs; nothing was deployed`;
        if (release)
            return `❌ Failed: nothing was deployed; ${env} ${atTheEnd(d)}`;
        if (d.upload)
            return `❌ Failed after the upload of ${id}: nothing was deployed`;
        if (d.uploadUnconfirmed)
            return `❌ Failed after sending the upload, which was not confirmed: nothing was deployed`;
        return `❌ Failed before anything was ${d.environmentName ? 'deployed' : 'uploaded'}`;
    }
    if (!r.deploys)
        return '✅ Passed';
    if (d?.dryRun)
        return '🔍 Dry run: nothing was changed';
    if (d?.skipped) {
        const why = release?.state === 'already-running' ? ' (another deploy put it there while this run waited)' : '';
        return `✅ Already running: ${env} runs ${id}${why}; nothing deployed`;
    }
    if (release?.state === 'verified') {
        // "runs X" is a claim about now: only the last look makes it.
        return d && lastLookShows(d, d.distributionId ?? '')
            ? `✅ Verified: ${env} runs ${id}`
            : `✅ Verified ${id} on ${env}, which ${atTheEnd(d)}`;
    }
    if (release)
        return `✅ Deployed, not verified: ${env} ${atTheEnd(d)}`;
    if (d?.upload)
        return `✅ Uploaded as ${id}: no environment given, so nothing was deployed`;
    if (d?.reused)
        return `✅ Already on the stack as ${id}: nothing uploaded${d.environmentName ? '' : ' or deployed'}`;
    return '✅ Done';
}
/** A cancelled run's headline: that it was cancelled, how far the release came, and what the environment reports now. */
function cancelled(d, env, id) {
    const release = d?.release;
    if (d === undefined || release === undefined)
        return d?.upload ? `⏹ Cancelled after the upload of ${id}: nothing was deployed` : '⏹ Cancelled before anything was deployed';
    const now = atTheEnd(d);
    if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .rolledBack */ .EN)(release))
        return `⏹ Cancelled after rolling back: ${env} ${now}`;
    if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'rollback-requested'))
        return `⏹ Cancelled during the rollback to \`${release.rollbackTo ?? '?'}\`, which was not seen applied: ${env} ${now}`;
    const rollback = d.rollback && release.state !== 'verified' ? ', and no rollback was applied' : '';
    if (deployedWord(d) === 'true')
        return `⏹ Cancelled: the deploy of ${id} was requested and not verified${rollback}; ${env} ${now}`;
    if (deployedWord(d) === 'unknown')
        return `⏹ Cancelled: the deploy of ${id} may have been carried out (no answer or look settled it)${rollback}; ${env} ${now}`;
    return `⏹ Cancelled: nothing was deployed; ${env} ${now}`;
}
/** What was and was not observed of the release: the lines under the headline. */
function outcomeLines(d) {
    const release = d.release;
    const lines = [];
    const look = d.finalLook;
    if (look !== undefined && d.environmentName) {
        lines.push(`**Now:** ${'error' in look ? `what '${d.environmentName}' runs could not be looked at (${look.error})` : `'${d.environmentName}' ${(0,_deploy_look_js__WEBPACK_IMPORTED_MODULE_4__/* .describeLook */ .Fd)(look)} (looked at when the step ended)`}.`);
    }
    if (release) {
        const verified = (0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, 'verified');
        if (verified)
            lines.push(`**Verified by:** ${verified.evidence}.`);
        else if ((0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .wasRequested */ .mn)(release))
            lines.push(`**Not verified:** ${unobserved(d).join('; ')}.`);
        if (release.rollbackTo !== undefined)
            lines.push(`**Rollback to \`${release.rollbackTo}\`:** ${rollbackState(release)}.`);
    }
    for (const c of d.cautions)
        lines.push(`⚠️ ${c}`);
    return lines;
}
/** What the checks could not show. */
function unobserved(d) {
    const release = d.release;
    const out = [];
    if (release === undefined)
        return out;
    if (release.state === 'replaced')
        out.push('another deploy replaced it');
    else if (release.failure)
        out.push(`the release failed: ${FAILED_BY[release.failure.kind]}`);
    if (release.stopped !== undefined)
        out.push(release.stopped);
    if (release.unconfirmedAfterChecks !== undefined)
        out.push(release.unconfirmedAfterChecks);
    const ended = release.failure !== undefined || release.state === 'replaced' || release.stopped !== undefined;
    if (release.appliedBy === undefined && !ended)
        out.push('the deploy was not followed (follow-deploy: false)');
    if (release.appliedBy === 'not-observed')
        out.push('the switch was not seen (the platform reported the new id with no previous id or deploy status before it)');
    if (release.site === 'answers')
        out.push('the site answers, but without health-expect that cannot tell the new release from the old');
    if (release.site === undefined && !ended)
        out.push('the site was not checked (no health-url)');
    return out.length > 0 ? out : ['nothing showed that the new release serves'];
}
/** What stopped a release, in the words of the summary's "Not verified" line. */
const FAILED_BY = {
    search: 'the search check',
    unhealthy: 'the health check',
    busy: 'the environment stayed busy',
    older: 'the environment ran a newer commit (deploy order)',
    unconfirmed: 'no answer or look settled whether the deploy was carried out',
    'not-applied': 'the switch was not seen in time'
};
function rollbackState(release) {
    for (const [state, text] of [
        ['rollback-healthy', 'applied, and the site answers'],
        ['rollback-failed', 'failed'],
        ['rollback-applied', 'applied (the site was not checked)'],
        ['rollback-requested', 'requested, not seen applied']
    ]) {
        const t = (0,_deploy_release_state_js__WEBPACK_IMPORTED_MODULE_0__/* .reached */ .V6)(release, state);
        if (t)
            return `${text}: ${state === 'rollback-requested' && release.rollbackNotSeen !== undefined ? release.rollbackNotSeen : t.evidence}`;
    }
    if (release.state === 'replaced')
        return 'not sent: another deploy replaced this one';
    if (release.rollbackUnconfirmed !== undefined)
        return `may have been carried out: ${release.rollbackUnconfirmed}`;
    if (release.rollbackRefused !== undefined)
        return `refused: ${release.rollbackRefused}`;
    if (release.rollbackNotSent !== undefined)
        return `not sent: ${release.rollbackNotSent}`;
    return 'not sent: the run stopped before it could look at the environment';
}
function summaryMarkdown(r) {
    const d = r.deploy;
    const lines = [r.deploys ? '## Bloomreach Cloud deployment' : '## Bloomreach search check', '', `**${headline(r)}**`, ''];
    if (d)
        lines.push(...outcomeLines(d).flatMap((l) => [l, '']));
    if (r.error) {
        lines.push(`**Error:** ${r.error.replace(/\r?\n/g, ' ')}`, '');
        if (d?.consoleUrl && d.platformReached)
            lines.push(`Look at the environment in [Mission Control](${d.consoleUrl}).`, '');
    }
    if (r.deploys)
        lines.push(...table(deploymentRows(d, r.environment), 'Deployment'));
    const transitions = d?.release?.transitions ?? [];
    if (transitions.length > 0) {
        const start = transitions[0]?.at ?? 0;
        lines.push('', '### Release', '', '| Time | State | Evidence |', '|---:|---|---|');
        for (const t of transitions)
            lines.push(`| ${(0,_format_js__WEBPACK_IMPORTED_MODULE_5__/* .formatDuration */ .a3)(t.at - start)} | ${t.state} | ${cell(t.evidence)} |`);
    }
    if (d?.dryRun && d.plan.length > 0)
        lines.push('', '### What the run would do', '', ...d.plan.map((p) => `- ${p}`));
    if (r.search)
        lines.push('', '### Search check', '', ...table(searchRows(r.search), 'Search'));
    if (r.phases.length > 0) {
        lines.push('', '### Phases', '', '| Phase | Time | |', '|---|---:|---|');
        for (const p of r.phases)
            lines.push(`| ${cell(p.name)} | ${(0,_format_js__WEBPACK_IMPORTED_MODULE_5__/* .formatDuration */ .a3)(p.ms)} | ${p.ok ? '✓' : '✗'} |`);
    }
    return lines.join('\n') + '\n';
}
/** Sets the outputs, shows the notices and writes the job summary of a run. */
async function report(run) {
    for (const [name, value] of Object.entries(outputValues(run)))
        _port_js__WEBPACK_IMPORTED_MODULE_6__/* .setOutput */ .uH(name, value);
    for (const line of notices(run))
        _port_js__WEBPACK_IMPORTED_MODULE_6__/* .notice */ .lm(line);
    // A face with nowhere to write it (a local run) skips it quietly, and the post step has nothing to read.
    if (await _port_js__WEBPACK_IMPORTED_MODULE_6__/* .writeSummary */ .Sy(summaryMarkdown(run)))
        (0,_run_state_js__WEBPACK_IMPORTED_MODULE_3__/* .noteReported */ .uR)();
}


/***/ }),

/***/ 518:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B1: () => (/* binding */ noteGitHubDeploymentFinal),
/* harmony export */   Ek: () => (/* binding */ noteRefreshTokens),
/* harmony export */   uR: () => (/* binding */ noteReported),
/* harmony export */   v9: () => (/* binding */ noteGitHubDeployment)
/* harmony export */ });
/* unused harmony exports STATE, readState */
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8676);
// What the main step leaves for the post step (action.yml runs.post), which runs after a cancel or a
// kill too: the runner hands each saved value back as a STATE_<name> variable. The main step notes
// each fact the moment it becomes true, so whatever point it is stopped at, the post step knows what
// is left to finish.

/** The state names; the post step reads them with the port's getState. */
const STATE = {
    /** 'true' once the main step began: the one bundle then runs as the post step. */
    isPost: 'isPost',
    /** The API base address the refresh token belongs to (the stack's password login). */
    apiUrl: 'cloudApiUrl',
    /** Who issued the refresh token: 'password' (the stack's login) or 'oauth' (token-url, revoked there). */
    tokenIssuer: 'cloudRefreshTokenIssuer',
    /** This run's refresh tokens still valid, one per line (a login after a failed renewal brings another); '' once revoked. */
    refreshToken: 'cloudRefreshToken',
    /** 'true' once the main step revoked every refresh token it received. */
    revoked: 'cloudRefreshTokenRevoked',
    /** The GitHub Deployment started for this run: its id, and owner/repo. */
    githubDeploymentId: 'githubDeploymentId',
    githubRepository: 'githubDeploymentRepository',
    githubLogUrl: 'githubDeploymentLogUrl',
    /** 'true' once the GitHub Deployment got a final status (success or failure). */
    githubDeploymentFinal: 'githubDeploymentFinal',
    /** 'true' once the main step wrote its outputs and summary. */
    reported: 'reported'
};
/** Through the face's port, which keeps it only where a post step will read it (the runner's state file). */
function save(name, value) {
    _port_js__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(name, value);
}
/**
 * The refresh tokens still valid (each masked when it arrived): what the post step revokes if the main step cannot.
 * `apiUrl` is the stack's, for the password login's; an empty list once all are revoked.
 */
function noteRefreshTokens(issuer, apiUrl, tokens) {
    for (const token of tokens)
        _port_js__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(token);
    save(STATE.tokenIssuer, issuer);
    save(STATE.apiUrl, apiUrl);
    save(STATE.refreshToken, tokens.join('\n'));
    save(STATE.revoked, tokens.length === 0 ? 'true' : 'false');
}
function noteGitHubDeployment(id, repo, logUrl) {
    save(STATE.githubDeploymentId, String(id));
    save(STATE.githubRepository, `${repo.owner}/${repo.repo}`);
    save(STATE.githubLogUrl, logUrl ?? '');
    save(STATE.githubDeploymentFinal, 'false');
}
function noteGitHubDeploymentFinal() {
    save(STATE.githubDeploymentFinal, 'true');
}
function noteReported() {
    save(STATE.reported, 'true');
}
function readState(get = core.getState) {
    const text = (name) => get(name) || undefined;
    const id = Number(get(STATE.githubDeploymentId));
    const [owner, repo] = (get(STATE.githubRepository) || '').split('/');
    return {
        apiUrl: text(STATE.apiUrl),
        tokenIssuer: get(STATE.tokenIssuer) === 'oauth' ? 'oauth' : 'password',
        refreshTokens: (get(STATE.refreshToken) || '').split('\n').filter((t) => t !== ''),
        revoked: get(STATE.revoked) === 'true',
        githubDeployment: Number.isSafeInteger(id) && id > 0 && owner && repo ? { id, owner, repo, logUrl: text(STATE.githubLogUrl) } : undefined,
        githubDeploymentFinal: get(STATE.githubDeploymentFinal) === 'true',
        reported: get(STATE.reported) === 'true'
    };
}


/***/ }),

/***/ 4065:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CG: () => (/* binding */ buildSearchRequest),
/* harmony export */   H4: () => (/* binding */ newRequestId),
/* harmony export */   Mn: () => (/* binding */ stableUid),
/* harmony export */   _N: () => (/* binding */ appBrUid),
/* harmony export */   pU: () => (/* binding */ SEARCH_PATH),
/* harmony export */   rO: () => (/* binding */ MAX_REQUEST_BYTES)
/* harmony export */ });
/* unused harmony exports randomDigits, newBrUid, searchParams, requestBytes */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
// Builds one search request: the path with its query string, the identifiers of a client without
// JavaScript, and the 16 KB size check. The auth key travels in the query string, so the full address
// is never printed: `redactedTarget` is the form for messages.

const SEARCH_PATH = '/api/v1/core/';
/** The service answers HTTP 414 to a request over 16 KB. */
const MAX_REQUEST_BYTES = 16 * 1024;
/** `n` random decimal digits, the first one not 0. */
function randomDigits(n) {
    let out = String((0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomInt)(1, 10));
    while (out.length < n)
        out += String((0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomInt)(0, 10));
    return out;
}
/** A request id: 13 random digits, the usual form. */
function newRequestId() {
    return randomDigits(13);
}
/**
 * The one place that writes the `_br_uid_2` form of a client without JavaScript: an app user
 * (`v=app`, `ts=0`, hit count 1), unencoded; it is percent-encoded once when the request is built.
 */
function appBrUid(uid) {
    return `uid=${uid}:v=app:ts=0:hc=1`;
}
/** A random app user's `_br_uid_2` (a new visitor). */
function newBrUid() {
    return appBrUid(randomDigits(13));
}
/**
 * 13 digits (the first not 0) derived from `seed`, e.g. the repository: the service asks a client to
 * keep one uid for good, and an action has no storage between runs, so the same seed makes the same visitor.
 */
function stableUid(seed) {
    const n = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(seed).digest().readBigUInt64BE(0);
    return String(1000000000000n + (n % 9000000000000n));
}
/**
 * Percent-encodes a query value exactly once. encodeURIComponent rather than URLSearchParams: a space is
 * sent as %20 (never as '+', which some servers keep literally), and ':' and '=' inside `_br_uid_2`
 * become %3A and %3D.
 */
function encode(value) {
    return encodeURIComponent(value);
}
function searchParams(p) {
    return [
        ['account_id', p.accountId],
        ['auth_key', p.authKey],
        ['domain_key', p.domainKey],
        ['request_id', p.requestId],
        ['_br_uid_2', p.brUid],
        ['ref_url', ''], // a client without JavaScript has no referring page
        ['url', p.pageUrl],
        ['request_type', 'search'],
        ['search_type', p.type],
        ['q', p.q],
        ['fl', p.fields.join(',')],
        ['rows', String(p.rows)],
        ['start', String(p.start)]
    ];
}
function queryString(pairs) {
    return pairs.map(([k, v]) => `${k}=${encode(v)}`).join('&');
}
/** Request line and headers in bytes, as a server counts them against its limit. */
function requestBytes(target, host, headers) {
    let n = Buffer.byteLength(`GET ${target} HTTP/1.1\r\nhost: ${host}\r\n`);
    for (const [k, v] of Object.entries(headers))
        n += Buffer.byteLength(`${k}: ${v}\r\n`);
    return n + 2;
}
function buildSearchRequest(p, options) {
    const pairs = searchParams(p);
    const target = `${SEARCH_PATH}?${queryString(pairs)}`;
    const redactedTarget = `${SEARCH_PATH}?${pairs.map(([k, v]) => `${k}=${k === 'auth_key' ? '***' : encode(v)}`).join('&')}`;
    const headers = { 'cache-control': 'no-cache', ...options.headers };
    const base = new URL(options.baseUrl);
    const fullTarget = base.pathname.replace(/\/+$/, '') + target;
    return { target, redactedTarget, headers, bytes: requestBytes(fullTarget, base.host, headers) };
}


/***/ }),

/***/ 8363:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   J2: () => (/* binding */ SEARCH_HOSTS),
/* harmony export */   el: () => (/* binding */ REQUESTABLE_FIELDS),
/* harmony export */   wA: () => (/* binding */ SEARCH_LIMITS)
/* harmony export */ });
// What the search service accepts: its hosts, the fields a request may name and its limits. Facts
// about the service, shared by the search inputs (src/inputs/search.ts) and the runtime.
const SEARCH_HOSTS = {
    production: 'https://core.dxpapi.com',
    staging: 'https://staging-core.dxpapi.com'
};
/** The product fields the service lets a request name in `fl`. */
const REQUESTABLE_FIELDS = [
    'pid',
    'title',
    'brand',
    'price',
    'sale_price',
    'thumb_image',
    'url',
    'description',
    'colors',
    'sizes',
    'price_range',
    'sale_price_range'
];
const SEARCH_LIMITS = {
    maxRows: 200,
    /** The service asks clients for a timeout of at least 2 seconds. */
    minTimeoutSeconds: 2,
    maxTimeoutSeconds: 120,
    /** The longest search-wait-seconds accepted. */
    maxWaitSeconds: 3600
};


/***/ }),

/***/ 7194:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E$: () => (/* binding */ redact),
/* harmony export */   cl: () => (/* binding */ registerSecret)
/* harmony export */ });
/* unused harmony export forgetSecrets */
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8676);
// Every secret goes through here: masked in the runner's log the moment it is known, and remembered
// so that any text we print ourselves (error details from a service) can be scrubbed as well.

const known = new Set();
function registerSecret(value) {
    if (!value)
        return;
    if (!known.has(value)) {
        known.add(value);
        _port_js__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(value);
    }
    // Also mask the percent-encoded form: a service may echo a secret back URL-encoded.
    const encoded = encodeURIComponent(value);
    if (encoded !== value && !known.has(encoded)) {
        known.add(encoded);
        _port_js__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(encoded);
    }
}
/** Replaces every known secret in `text` with ***. */
function redact(text) {
    let out = text;
    for (const secret of [...known].sort((a, b) => b.length - a.length))
        out = out.split(secret).join('***');
    return out;
}
/** Forgets every secret: a process that runs many runs one after another (the simulation) starts each with none. */
function forgetSecrets() {
    known.clear();
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 5317:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 6466:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream/promises");

/***/ }),

/***/ 6193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:string_decoder");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 8877:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:v8");

/***/ }),

/***/ 714:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:vm");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 3557:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 3106:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("zlib");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __nccwpck_require__(7194);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: ./src/deploy/release-state.ts
var release_state = __nccwpck_require__(350);
// EXTERNAL MODULE: ./src/port.ts
var src_port = __nccwpck_require__(8676);
// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __nccwpck_require__(8877);
var external_node_v8_default = /*#__PURE__*/__nccwpck_require__.n(external_node_v8_);
// EXTERNAL MODULE: ./src/deploy/outcome.ts
var outcome = __nccwpck_require__(4535);
// EXTERNAL MODULE: ./src/inputs/index.ts + 6 modules
var src_inputs = __nccwpck_require__(8083);
;// CONCATENATED MODULE: ./src/phases.ts
// The run's timeline: each phase in its own log group, how long it took and whether it passed. The
// steps run their phases through it; the report reads it; nothing else writes it.

/** Set to `1` to log the process's memory after each phase (for the benchmark; off by default). */
const TRACE_MEMORY_ENV = 'BRCLOUD_DEPLOY_TRACE_MEMORY';
const MiB = 1024 * 1024;
/**
 * The memory trace line logged after a phase: resident set now, peak resident set so far
 * (`maxRSS`, in KiB), V8 heap in use and memory outside the V8 heap (Buffers, zlib), in MiB.
 */
function memoryTraceLine(phase, usage, maxRssKiB) {
    const m = (bytes) => (bytes / MiB).toFixed(1);
    return `memory after "${phase}": rss ${m(usage.rss)} MiB, peak ${m(maxRssKiB * 1024)} MiB, heap ${m(usage.heapUsed)} MiB, external ${m(usage.external)} MiB`;
}
class Timeline {
    done = [];
    running;
    /** The phases that ended, in order. */
    get phases() {
        return this.done;
    }
    /** The phase running now, or the one that failed: for failure messages. */
    get current() {
        return this.running;
    }
    run = async (name, fn, passed) => {
        const started = Date.now();
        let ok = false;
        let threw = true;
        this.running = name;
        try {
            const result = await src_port/* group */.Os(name, fn);
            threw = false;
            ok = passed === undefined || passed(result);
            return result;
        }
        finally {
            this.done.push({ name, ms: Date.now() - started, ok });
            if (process.env[TRACE_MEMORY_ENV] === '1')
                src_port/* info */.pq(memoryTraceLine(name, process.memoryUsage(), process.resourceUsage().maxRSS));
            // A phase that threw stays current, so the failure message can say where it happened.
            if (!threw)
                this.running = undefined;
        }
    };
}

// EXTERNAL MODULE: ./src/report.ts
var report = __nccwpck_require__(665);
// EXTERNAL MODULE: ./src/http/errors.ts
var http_errors = __nccwpck_require__(8549);
// EXTERNAL MODULE: ./src/http/proxy.ts
var http_proxy = __nccwpck_require__(7856);
;// CONCATENATED MODULE: ./src/main.ts
// Entry of one run: read and validate the inputs, run the steps (deploy, search check) under a
// watchdog, then report what they did. This is the one place that calls core.setFailed. Only light
// modules load before the inputs are valid; the steps (HTTP, archive, search) are imported after.










/** The run took longer than total-timeout-minutes. */
class WatchdogTimeout extends errors/* ActionError */.lZ {
    name = 'WatchdogTimeout';
}
/** The search check ran and did not pass. */
class SearchCheckFailed extends errors/* ActionError */.lZ {
    name = 'SearchCheckFailed';
}
/** The run was cancelled: GitHub sent SIGINT (a cancelled workflow, cancel-in-progress, a step's timeout-minutes), or Ctrl-C. */
class Cancelled extends errors/* ActionError */.lZ {
    name = 'Cancelled';
}
/**
 * After a stop: how long the steps get to unwind (temp files, the partial result), then each closing call's
 * limit (the last look, then the revocation beside the GitHub Deployment's status). A cancel must end within
 * GitHub's grace: SIGTERM comes 7.5 s after SIGINT, the kill 2.5 s later; 2 s + 2.5 s (the look) + 2.5 s
 * report before SIGTERM. SIGTERM alone leaves 2.5 s before the kill: 0.5 s + 0.8 s + 0.8 s, and the post:
 * step finishes what these could not.
 */
const UNWIND_MS = { watchdog: 5_000, cancel: 2_000, terminate: 500 };
const CLOSE_LIMIT_MS = { watchdog: 3_000, cancel: 2_500, terminate: 800 };
/** All the closing calls together (the look, then the revocation beside the GitHub status). */
const CLOSE_TOTAL_MS = { watchdog: 6_000, cancel: 5_000, terminate: 1_600 };
/** The closing calls' limit when the run ends by itself: the last look's. */
const LAST_LOOK_MS = 3_000;
async function run(host) {
    const timeline = new Timeline();
    let inputs;
    let deployRun;
    let searched;
    let error;
    let stopped;
    let ended;
    const stop = new AbortController();
    // A second signal (GitHub's SIGTERM, 7.5 s after SIGINT): report at once with what is known.
    const hurry = new AbortController();
    const during = () => (timeline.current ? ` during "${timeline.current}"` : '');
    let signals = 0;
    const onSignal = (signal) => {
        if (++signals > 1)
            return hurry.abort();
        // The watchdog is already ending the run: after SIGINT its closing calls fit in the grace period (SIGTERM, 7.5 s
        // later, hurries it); SIGTERM alone leaves 2.5 s, so it reports at once and the post step finishes the rest.
        if (stopped !== undefined)
            return signal === 'SIGTERM' ? hurry.abort() : undefined;
        stopped = signal === 'SIGTERM' ? 'terminate' : 'cancel';
        stop.abort(new Cancelled(`The run was cancelled (${signal})${during()}: it sent no deploy or rollback after that.`));
    };
    host.signals.on('SIGINT', onSignal);
    host.signals.on('SIGTERM', onSignal);
    let timer;
    let result;
    try {
        inputs = (0,src_inputs/* readInputs */.Ko)();
        const { deploy: deployInputs, search } = inputs;
        const minutes = +(inputs.watchdogMs / 60_000).toFixed(2);
        const derived = inputs.common.timeoutMs === undefined ? ', derived from the other budgets' : '';
        timer = setTimeout(() => {
            if (stopped !== undefined)
                return;
            stopped = 'watchdog';
            stop.abort(new WatchdogTimeout(`The deployment did not finish within total-timeout-minutes (${minutes} min${derived})${timeline.current ? `; it was stopped during "${timeline.current}"` : ''}. The platform may be slow or not ` +
                `answering: check its status, then run again, or raise total-timeout-minutes for very large distributions.`));
        }, inputs.watchdogMs);
        // undici parses HTTP with WebAssembly; V8's optimizing tier would compile it again in the
        // background for about 35 MB of peak memory, for no gain in a run of a few hundred calls.
        external_node_v8_default().setFlagsFromString('--liftoff-only');
        // The search check, after the deploy (which may roll back when it fails) or on its own.
        const checkSearchOnce = async () => {
            if (!search)
                return undefined;
            const { checkSearch } = await Promise.all(/* import() */[__nccwpck_require__.e(752), __nccwpck_require__.e(113)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2113));
            searched = await checkSearch(search, timeline.run, stop.signal);
            return searchFailure(searched);
        };
        const steps = async () => {
            if (deployInputs) {
                const { startDeploy } = await Promise.all(/* import() */[__nccwpck_require__.e(752), __nccwpck_require__.e(260), __nccwpck_require__.e(883), __nccwpck_require__.e(223)]).then(__nccwpck_require__.bind(__nccwpck_require__, 223));
                // After a stop, the closing calls get the stop's limits, whoever begins them (the unwinding steps, or this run).
                const closeLimitMs = () => (stopped === undefined ? LAST_LOOK_MS : CLOSE_LIMIT_MS[stopped]);
                deployRun = startDeploy(deployInputs, timeline.run, stop.signal, search ? checkSearchOnce : undefined, closeLimitMs);
                try {
                    await deployRun.done;
                }
                catch (failure) {
                    if (!(failure instanceof errors/* StepFailed */.an))
                        throw failure;
                    throw failure.cause;
                }
            }
            else {
                await checkSearchOnce();
            }
            const failed = searched && searchFailure(searched);
            if (failed)
                throw new SearchCheckFailed(failed);
        };
        const running = steps();
        try {
            await Promise.race([running, aborted(stop.signal)]);
        }
        catch (failure) {
            if (stopped === undefined)
                throw failure;
            // Every call in flight was aborted and every wait ended: let the steps unwind briefly, then close what they could not.
            const late = aborted(hurry.signal).catch(() => undefined);
            await Promise.race([running.catch(() => undefined), delay(UNWIND_MS[stopped]), late]);
            // The closing calls may have begun before the stop, with longer limits: they get this stop's time, no more.
            await Promise.race([deployRun?.close(), late, delay(CLOSE_TOTAL_MS[stopped])]);
            throw stoppedBy(stop.signal, deployRun);
        }
    }
    catch (failure) {
        ended = failure;
        error = failureMessage(failure, inputs, timeline.current);
        src_port/* setFailed */.C1(error);
    }
    finally {
        clearTimeout(timer);
        host.signals.off('SIGINT', onSignal);
        host.signals.off('SIGTERM', onSignal);
        result = { ...intent(inputs), deploy: deployRun?.result, search: searched, phases: timeline.phases, error, stopped };
        await (0,report/* report */.z8)(result).catch((e) => src_port/* warning */.$e(`Could not write the job summary: ${String(e)}`));
    }
    // A hung call may still hold a socket open after a stop: end the process, do not wait for it.
    if (stopped !== undefined)
        host.exit(1);
    return { result, failure: ended };
}
/**
 * What the run was asked to do, for the report: from the parsed inputs, or, when they were refused, from the raw
 * values (a search check alone when search-query is set and no distribution source is).
 */
function intent(inputs) {
    const raw = (name) => {
        try {
            return src_port/* getInput */.V4(name);
        }
        catch {
            return '';
        }
    };
    const environment = inputs ? inputs.deploy?.environment : raw('environment') || undefined;
    if (inputs)
        return { deploys: inputs.deploy !== undefined, environment };
    const source = ['distribution', 'distribution-id', 'from-environment'].some((n) => raw(n) !== '');
    return { deploys: source || raw('search-query') === '', environment };
}
/** The stop's message (the watchdog's or the cancel's), with where the release stands and what runs now. */
function stoppedBy(signal, deployRun) {
    return new errors/* ActionError */.lZ(`${signal.reason.message}${(0,outcome/* whereItStands */.ay)(deployRun?.result)}`);
}
/** What a search check that did not pass says; undefined when it passed. */
function searchFailure(searched) {
    return searched.passed ? undefined : `Search check failed: ${searched.failure ?? 'no passing answer'}`;
}
function delay(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
function aborted(signal) {
    return new Promise((_, reject) => {
        if (signal.aborted)
            return reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}
/** A code of the operating system or undici: the connection failed. */
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_\w+)$/;
/** What a failed connection means, honestly counted: a name that does not resolve is tried once; the rest up to max-attempts. */
function connectionMessage(code, text, apiUrl, maxAttempts, phase) {
    const during = phase ? ` during "${phase}"` : '';
    const host = new URL(apiUrl).host;
    const proxy = (0,http_proxy/* proxyFor */.iJ)(apiUrl);
    if (proxy) {
        // Through a proxy, a refused or unresolved connection is the proxy's as often as the platform's: name it.
        return (`The connection to ${apiUrl} through the proxy ${proxy.url} (set by ${proxy.variable}) failed${during} (${code}: ${text})` +
            `${(0,http_errors/* networkFailure */.rd)({ code }) !== undefined ? `, on each of up to ${maxAttempts} attempt(s)` : ''}. Check that the proxy runs and that the runner can reach it, or correct ${proxy.variable}; a host listed in ` +
            `NO_PROXY bypasses it. More attempts (max-attempts) will not help while the proxy is unreachable.`);
    }
    if (code === 'ENOTFOUND') {
        return (`The host ${host} does not exist${during} (ENOTFOUND): the stack name is probably wrong. It was tried once and is not retried. ` +
            `Copy the word after "missioncontrol." from your console address into stack (or set console-url to that address).`);
    }
    const retried = (0,http_errors/* networkFailure */.rd)({ code }) !== undefined;
    return retried
        ? `The connection to ${apiUrl} failed${during} (${code}: ${text}), on each of up to ${maxAttempts} attempt(s) (max-attempts). ` +
            `Check that the runner can reach the platform; if the network is flaky, raise max-attempts.`
        : `The connection to ${apiUrl} failed${during} (${code}: ${text}); this failure is not retried. Check the stack name or api-url and that the runner can reach the platform.`;
}
/** One message for the failure annotation: what went wrong and what to do; never a secret. */
function failureMessage(error, inputs, phase) {
    let message;
    if (error instanceof errors/* ActionError */.lZ) {
        message = error.message;
    }
    else {
        const code = (0,errors/* systemErrorCode */.vq)(error);
        const text = error instanceof Error ? error.message : String(error);
        const deploy = inputs?.deploy;
        if (code && NETWORK_CODE.test(code) && deploy) {
            message = connectionMessage(code, text, deploy.address.apiUrl, deploy.maxAttempts, phase);
        }
        else {
            message = text;
        }
    }
    return (0,secrets/* redact */.E$)(message);
}

;// CONCATENATED MODULE: ./src/cli/exit-codes.ts
// The exit code of a run, derived from how the engine ended it (src/main.ts's RunEnding): the release's states,
// the deploy order, the error's class. docs/cli.md documents the table; scripts branch on it.




const EXIT = {
    success: 0,
    failure: 1,
    badInput: 2,
    refused: 3,
    loginRefused: 4,
    rolledBack: 5,
    possiblyLive: 6,
    searchFailed: 7,
    sigint: 130,
    sigterm: 143
};
/**
 * The first that holds, in this order: success; a cancel by signal; bad input; then what the environment runs
 * (rolled back, or our release possibly live: a failure after a deploy request outranks why it failed); a
 * refusal before any deploy (the order, a busy environment, a refused login); a failed search check; any other failure.
 */
function exitCode({ result, failure }) {
    if (result.error === undefined)
        return EXIT.success;
    if (result.stopped === 'cancel')
        return EXIT.sigint;
    if (result.stopped === 'terminate')
        return EXIT.sigterm;
    if (failure instanceof errors/* InputError */.dz)
        return EXIT.badInput;
    const deploy = result.deploy;
    const release = deploy?.release;
    if ((0,release_state/* rolledBack */.EN)(release))
        return EXIT.rolledBack;
    const deployed = (0,report/* deployedWord */.dH)(deploy);
    if ((deployed === 'true' || deployed === 'unknown') && release?.state !== 'replaced')
        return EXIT.possiblyLive;
    if (deploy?.order?.refused || release?.failure?.kind === 'busy' || release?.failure?.kind === 'older')
        return EXIT.refused;
    if ((0,errors/* refusesLogin */.LG)(failure))
        return EXIT.loginRefused;
    if (failure instanceof SearchCheckFailed)
        return EXIT.searchFailed;
    return EXIT.failure;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: ./src/action-metadata.ts
var action_metadata = __nccwpck_require__(227);
;// CONCATENATED MODULE: ./src/cli/inputs.ts
// Which inputs each command takes, and where their values come from: a flag --<input-name>, else the
// variable BRCLOUD_<INPUT_NAME>. Secrets never come from a flag (command lines are logged): only from
// the environment, or from a file named by --<secret>-file or BRCLOUD_<SECRET>_FILE. The values are
// handed to the engine's readInputs() unchecked: it validates them, with the action's messages.



const INPUT_NAMES = Object.keys(action_metadata/* INPUT_DEFAULTS */.W);
/** The inputs that are secrets: never a flag. */
const SECRET_INPUTS = ['password', 'client-secret', 'access-token', 'github-token', 'search-auth-key'];
/** The inputs of a command: every one for deploy (which also runs the search check when asked), the search ones for search-check. */
function inputsOf(command) {
    return command === 'deploy' ? INPUT_NAMES : INPUT_NAMES.filter((name) => name.startsWith('search-') || name === 'total-timeout-minutes');
}
/** The variable an input is read from: BRCLOUD_ and its name in upper case, '-' as '_'. */
function envName(name) {
    return `BRCLOUD_${name.toUpperCase().replace(/-/g, '_')}`;
}
/** A bad command line or setting, found before the engine runs: exit 2, like a bad input. */
class UsageError extends errors/* InputError */.dz {
    name = 'UsageError';
}
/**
 * The value of each input of `command`: the flag, else the variable; a secret from its file or its variable
 * (parseCommandLine refused a secret given as a flag). Throws a UsageError when a secret's file cannot be read.
 */
function collectInputs(command, flags, env) {
    const values = new Map();
    for (const name of inputsOf(command)) {
        const value = SECRET_INPUTS.includes(name) ? secret(name, flags, env) : (stringFlag(flags[name]) ?? env[envName(name)]);
        if (value !== undefined)
            values.set(name, value);
    }
    return values;
}
function stringFlag(value) {
    return typeof value === 'string' ? value : undefined;
}
/** A secret: its file (--<name>-file wins over BRCLOUD_<NAME>_FILE), else BRCLOUD_<NAME>. */
function secret(name, flags, env) {
    const file = stringFlag(flags[`${name}-file`]) ?? env[`${envName(name)}_FILE`];
    if (file === undefined || file === '')
        return env[envName(name)];
    try {
        // A file written by `echo` or an editor ends with a line break that is not part of the secret; nothing else is trimmed.
        return (0,external_node_fs_.readFileSync)(file, 'utf8').replace(/\r?\n$/, '');
    }
    catch (error) {
        throw new UsageError(`The ${name} file ${file} could not be read (${error.code ?? String(error)}).`);
    }
}

;// CONCATENATED MODULE: ./src/cli/args.ts
// The command line, read with util.parseArgs alone: the command, its flags (one per input of action.yml,
// --<secret>-file for each secret) and the CLI's own (--json, --summary, --dotenv, --debug, --commit, --repository,
// --help, --version).


const COMMANDS = ['deploy', 'search-check'];
/** The CLI's own flags, beside the inputs. */
const OWN = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
    json: { type: 'boolean' },
    summary: { type: 'string' },
    dotenv: { type: 'string' },
    debug: { type: 'boolean' },
    // The run's context outside GitHub's runner (./run-context.ts).
    commit: { type: 'string' },
    repository: { type: 'string' }
};
/** Every flag of `command`: its inputs, a file flag for each secret among them, and the CLI's own. */
function optionsOf(command) {
    const options = { ...OWN };
    for (const name of inputsOf(command)) {
        options[name] = { type: 'string' };
        if (SECRET_INPUTS.includes(name))
            options[`${name}-file`] = { type: 'string' };
    }
    return options;
}
function parseCommandLine(args) {
    // A first, lenient pass finds the command, and any secret given as a flag, whatever else is wrong.
    const { tokens } = (0,external_node_util_.parseArgs)({ args: [...args], strict: false, allowPositionals: true, tokens: true });
    const command = tokens.find((t) => t.kind === 'positional')?.value;
    const secretFlags = tokens.filter((t) => t.kind === 'option' && SECRET_INPUTS.includes(t.name));
    if (secretFlags.length > 0) {
        const names = [...new Set(secretFlags.map((t) => (t.kind === 'option' ? t.name : '')))];
        throw new UsageError(`A secret is refused as a flag, because command lines are logged and seen by other processes: ` +
            names.map((n) => `--${n} (set ${envName(n)}, or --${n}-file FILE)`).join('; ') +
            '.');
    }
    if (command === undefined) {
        const { values } = strictParse(args, OWN, false);
        if (values.version)
            return { kind: 'version' };
        return { kind: 'help', command: undefined };
    }
    if (!COMMANDS.includes(command))
        throw new UsageError(`Unknown command '${command}': brcloud knows ${COMMANDS.join(', ')} (brcloud --help).`);
    const known = command;
    const { values, positionals } = strictParse(args, optionsOf(known), true);
    // Not repeated: a stray word may be a secret typed in the wrong place.
    if (positionals.length > 1)
        throw new UsageError(`brcloud ${known} takes no argument besides its flags (brcloud ${known} --help lists them).`);
    if (values.help)
        return { kind: 'help', command: known };
    if (values.version)
        return { kind: 'version' };
    return {
        kind: 'run',
        command: known,
        flags: values,
        json: values.json === true,
        summaryFile: typeof values.summary === 'string' ? values.summary : undefined,
        dotenvFile: typeof values.dotenv === 'string' ? values.dotenv : undefined,
        debug: values.debug === true
    };
}
function strictParse(args, options, allowPositionals) {
    try {
        return (0,external_node_util_.parseArgs)({ args: [...args], options, strict: true, allowPositionals });
    }
    catch (error) {
        // parseArgs names the flag and what is wrong with it; it never repeats a value.
        throw new UsageError(`${error.message} (brcloud --help).`);
    }
}

;// CONCATENATED MODULE: ./src/cli/azure.ts
// Azure Pipelines' logging commands (https://learn.microsoft.com/azure/devops/pipelines/scripts/logging-commands),
// written on stdout, where the agent reads them: each output as an output variable, warnings and errors as issues,
// and a failed run marked failed. Escaped as the agent's own task library escapes them (azure-pipelines-task-lib,
// node/taskcommand.ts): in a property, % \r \n ] ; ; in the message, % \r \n.

/** Under Azure Pipelines: the agent sets TF_BUILD=True in every step. */
function underAzure(env) {
    return env.TF_BUILD?.toLowerCase() === 'true';
}
function escapeMessage(text) {
    return text.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text) {
    return escapeMessage(text).replace(/]/g, '%5D').replace(/;/g, '%3B');
}
/** A warning or an error, shown in the log and the run's summary. */
function azureIssue(type, message) {
    return `##vso[task.logissue type=${type}]${escapeMessage(message)}\n`;
}
/**
 * The end of a run: every output as an output variable BRCLOUD_<OUTPUT> (a later step reads $(<step>.BRCLOUD_DEPLOYED),
 * a later job or stage through its dependencies), then, when the run failed, its error and the task marked failed.
 */
function azureEnding(outputs, failure) {
    const lines = Object.entries(outputs).map(([name, value]) => `##vso[task.setvariable variable=${escapeProperty(envName(name))};isOutput=true]${escapeMessage(value)}\n`);
    if (failure !== undefined)
        lines.push(azureIssue('error', failure), '##vso[task.complete result=Failed;]\n');
    return lines.join('');
}

;// CONCATENATED MODULE: ./src/cli/dotenv.ts
// --dotenv FILE: the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab CI's artifacts:reports:dotenv (later jobs
// get them as variables; an environment's url: may name one). GitLab reads a narrow dotenv: one VARIABLE=value a
// line, no quoting or escapes (quotes are kept as they are), no multi-line values, blanks around a value dropped.
// A value it cannot hold as it is is left out with a warning rather than handed on changed.

/** Why GitLab's dotenv cannot carry `value` as it is, or undefined when it can. */
function unfit(value) {
    if (/[\r\n]/.test(value))
        return 'it holds a line break';
    if (value !== value.trim())
        return 'it begins or ends with a blank';
    if (/^["'`]/.test(value))
        return 'it begins with a quote';
    return undefined;
}
/** The dotenv file's text, and a warning for each output left out. */
function dotenvOf(outputs, warn) {
    const lines = [];
    for (const [name, value] of Object.entries(outputs)) {
        const why = unfit(value);
        if (why === undefined)
            lines.push(`${envName(name)}=${value}\n`);
        else
            warn(`--dotenv: ${name} is left out of the file: GitLab's dotenv cannot hold its value, because ${why}.`);
    }
    return lines.join('');
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __nccwpck_require__(3136);
;// CONCATENATED MODULE: ./src/cli/emulator.ts
// `brcloud emulator [flags]`: the local emulator of both services (docs/emulator.md), so that a Jenkins, GitLab or
// Azure user can try everything with no account. It is a program of its own, bundled apart (dist-cli/emulator/:
// the emulator shares no code with the engine), run as a child so that its flags, its log and its exit are its own.





/** Where the emulator's bundle sits beside the command's (the package's dist-cli/emulator/index.js). */
function emulatorBundle() {
    // A path, not new URL('./emulator/...', import.meta.url): the bundler would take that for an asset of its own.
    return (0,external_node_path_.join)((0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)), 'emulator', 'index.js');
}
/** Runs the emulator with these flags until it ends; resolves with its exit code. */
function runEmulator(args, bundle = emulatorBundle()) {
    if (!(0,external_node_fs_.existsSync)(bundle)) {
        process.stderr.write(`error: brcloud emulator: no emulator beside this command (${bundle}). From a clone of the repository: npm run emulator.\n`);
        return Promise.resolve(EXIT.failure);
    }
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_namespaceObject.spawn)(process.execPath, [bundle, ...args], { stdio: 'inherit' });
        // Ctrl-C on a terminal reaches the child too (one process group); a signal sent to this process alone is passed on.
        const pass = (signal) => void child.kill(signal);
        process.on('SIGINT', pass).on('SIGTERM', pass);
        child.on('error', (error) => {
            process.stderr.write(`error: brcloud emulator could not start: ${error.message}\n`);
            resolve(EXIT.failure);
        });
        child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint)));
    });
}

;// CONCATENATED MODULE: ./src/cli/help.ts
// What --help and --version print: the commands, the CLI's own flags, every input as a flag and a variable
// (from action.yml's list, so a new input appears here by itself), and the exit codes.




const ABOUT = {
    deploy: 'Deploys a brXM distribution to a Bloomreach Cloud environment (and runs the search check when search-query is set).',
    'search-check': 'Checks that Bloomreach product search answers a query with results (no deployment).'
};
function mainHelp() {
    return [
        'brcloud: deploy brXM to Bloomreach Cloud from any CI or a terminal (the engine of the brcloud-deploy GitHub Action).',
        '',
        'Usage: brcloud <command> [flags]',
        '',
        'Commands:',
        ...Object.keys(ABOUT).map((c) => `  ${c.padEnd(14)}${ABOUT[c]}`),
        `  ${'emulator'.padEnd(14)}Runs the local emulator of the Bloomreach Cloud API and the search API, to try everything with no account (brcloud emulator --help).`,
        '',
        'brcloud <command> --help lists its flags; brcloud --version prints the version.',
        'Every input of the action is a flag --<input> or a variable BRCLOUD_<INPUT>; secrets only as a variable or a file.',
        'The log goes to stderr; --json prints the outputs as one JSON object on stdout. See docs/cli.md.',
        ''
    ].join('\n');
}
function commandHelp(command) {
    const inputs = inputsOf(command).map((name) => {
        const isSecret = SECRET_INPUTS.includes(name);
        const flag = isSecret ? `--${name}-file FILE` : `--${name} VALUE`;
        const fallback = action_metadata/* INPUT_DEFAULTS */.W[name] === '' ? '' : ` (default ${action_metadata/* INPUT_DEFAULTS */.W[name]})`;
        return `  ${flag.padEnd(36)}${envName(name)}${isSecret ? ' (secret: never a flag)' : ''}${fallback}`;
    });
    return [
        `Usage: brcloud ${command} [flags]`,
        '',
        ABOUT[command],
        '',
        'Output:',
        "  --json                              the outputs as one JSON object on stdout, keyed by the action's output names",
        '  --summary FILE                      the Markdown summary, written to FILE',
        '  --debug                             debug lines in the log (also BRCLOUD_DEBUG=true)',
        "  --dotenv FILE                       the outputs as BRCLOUD_<OUTPUT>=value lines, for GitLab's artifacts:reports:dotenv",
        '  (under Azure Pipelines, TF_BUILD=True: each output as an output variable BRCLOUD_<OUTPUT>, the failure as an issue;',
        "   in a GitHub Actions run: step: the outputs and the summary in the runner's files)",
        '',
        'The run:',
        '  --commit SHA                        the commit deployed (BRCLOUD_COMMIT; else GIT_COMMIT, CI_COMMIT_SHA, BUILD_SOURCEVERSION, GITHUB_SHA)',
        '  --repository OWNER/NAME             the GitHub repository of its GitHub Deployments, with github-token (BRCLOUD_REPOSITORY, GITHUB_REPOSITORY)',
        '',
        "Inputs (a flag wins over its variable; the meanings are the action's, in README.md):",
        ...inputs,
        '',
        `Exit codes: ${Object.entries(EXIT)
            .map(([what, code]) => `${code} ${what}`)
            .join(', ')} (docs/cli.md).`,
        ''
    ].join('\n');
}
/** The package's version, from the package.json beside the bundle's folder (dist-cli/..) or src/cli/../.. in the repository. */
function version() {
    for (const path of ['../package.json', '../../package.json']) {
        try {
            const pkg = JSON.parse((0,external_node_fs_.readFileSync)(new URL(path, import.meta.url), 'utf8'));
            if (pkg.name === 'brcloud-deploy' && pkg.version)
                return pkg.version;
        }
        catch {
            // not this one
        }
    }
    return 'unknown';
}

;// CONCATENATED MODULE: ./src/cli/port.ts
// The CLI's face: the engine's port (src/port.ts) on a terminal or a CI log. Inputs come from the values the
// command line and the environment gave (./inputs.ts); the human log goes to stderr, every line masked here
// (no runner masks anything outside GitHub Actions); outputs are kept for --json; the summary goes to the
// --summary file. No workflow command is written: outside a runner it would only be noise. Where a CI reads more
// (Azure Pipelines' issues, GitHub's runner files in a `run:` step), main.ts passes what writes it.

const STYLE = { bold: '1', dim: '2', red: '31', yellow: '33', cyan: '36' };
function createCliPort(options) {
    const secrets = new Set();
    const outputs = {};
    let failure;
    const mask = (text) => {
        let out = text;
        for (const secret of [...secrets].sort((a, b) => b.length - a.length))
            out = out.split(secret).join('***');
        return out;
    };
    const paint = (style, text) => (options.colour ? `\u001b[${STYLE[style]}m${text}\u001b[0m` : text);
    const line = (text, style, label) => {
        const masked = mask(text);
        const shown = label === undefined ? masked : `${label}: ${masked}`;
        options.write(`${style === undefined ? shown : paint(style, shown)}\n`);
    };
    const annotate = (type, message) => {
        if (options.issue)
            options.issue(type, mask(message));
        else
            line(message, type === 'warning' ? 'yellow' : 'red', type);
    };
    return {
        outputs,
        get failure() {
            return failure;
        },
        getInput(name, input) {
            const value = options.values.get(name) ?? '';
            if (input?.required && value === '')
                throw new Error(`Input required and not supplied: ${name}`);
            return input?.trimWhitespace === false ? value : value.trim();
        },
        setOutput(name, value) {
            // No output holds a secret; masked all the same, since every format prints them.
            outputs[name] = mask(value);
            options.runner?.setOutput(name, outputs[name]);
        },
        info: (message) => line(message),
        warning: (message) => annotate('warning', message),
        error: (message) => annotate('error', message),
        notice: (message) => line(message, 'cyan', 'notice'),
        debug: (message) => {
            if (options.debug)
                line(message, 'dim', 'debug');
        },
        isDebug: () => options.debug,
        // A group is a heading line: a log read in a file or a CI console has no folds.
        async group(name, fn) {
            line(`== ${name}`, 'bold');
            return fn();
        },
        setSecret(secret) {
            if (secret !== '')
                secrets.add(secret);
        },
        async writeSummary(markdown) {
            const toRunner = (await options.runner?.writeSummary(mask(markdown))) ?? false;
            if (options.summaryFile === undefined)
                return toRunner;
            await (0,promises_.writeFile)(options.summaryFile, mask(markdown));
            return true;
        },
        // No post step follows a command: the run revokes its own tokens, and nothing needs to be kept.
        saveState: () => undefined,
        getState: () => '',
        setFailed: (message) => {
            failure = mask(message);
            if (!options.issue)
                line(message, 'red', 'error');
        },
        getIDToken: () => Promise.reject(new Error('no OIDC identity token outside GitHub Actions (oidc-audience needs a GitHub Actions job)')),
        runContext: () => options.context
    };
}

// EXTERNAL MODULE: ./src/github/runner-context.ts
var runner_context = __nccwpck_require__(2579);
;// CONCATENATED MODULE: ./src/cli/run-context.ts
// The run's context outside GitHub's runner (the port's runContext): the commit from --commit, BRCLOUD_COMMIT or
// the CI's own variable; the GitHub repository (for GitHub Deployments with a github-token) from --repository,
// BRCLOUD_REPOSITORY or the runner's GITHUB_REPOSITORY; the CI's page of this run; the current folder as the
// workspace. Read from the command line and the environment it was given, never written to process.env.


/** Where a CI puts the commit it builds, after --commit and BRCLOUD_COMMIT: each CI sets only its own. */
const COMMIT_VARIABLES = ['GIT_COMMIT', 'CI_COMMIT_SHA', 'BUILD_SOURCEVERSION', 'GITHUB_SHA'];
const COMMIT = /^[0-9a-f]{7,64}$/i;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
/** The run's context from the CLI's flags (--commit, --repository) and the environment; a malformed value is a UsageError. */
function cliRunContext(flags, env) {
    // In a GitHub Actions `run:` step the runner's variables say it all; elsewhere they are absent and this is a start.
    const runner = (0,runner_context/* runnerContext */.c)(env);
    const commit = firstSet([['--commit', flags.commit], ['BRCLOUD_COMMIT', env.BRCLOUD_COMMIT], ...COMMIT_VARIABLES.map((name) => [name, env[name]])]);
    if (commit !== undefined && !COMMIT.test(commit.value))
        throw new UsageError(`${commit.from} is not a commit SHA (7 to 64 hexadecimal digits, the full SHA best): '${commit.value}'.`);
    const repository = firstSet([
        ['--repository', flags.repository],
        ['BRCLOUD_REPOSITORY', env.BRCLOUD_REPOSITORY],
        ['GITHUB_REPOSITORY', env.GITHUB_REPOSITORY]
    ]);
    if (repository !== undefined && !REPOSITORY.test(repository.value))
        throw new UsageError(`${repository.from} is not a GitHub repository as owner/name: '${repository.value}'.`);
    return {
        ...runner,
        sha: commit?.value.toLowerCase() ?? '',
        noCommit: `no --commit, BRCLOUD_COMMIT or ${COMMIT_VARIABLES.join(', ')}`,
        repository: repository?.value ?? '',
        runUrl: runner.runUrl ?? ciRunUrl(env),
        // A command works where it is started, also in a `run:` step with another working-directory.
        workspace: process.cwd()
    };
}
/** The CI's page of this run, for a GitHub Deployment's log: Jenkins' build, GitLab's job, Azure's build. */
function ciRunUrl(env) {
    if (env.BUILD_URL)
        return env.BUILD_URL;
    if (env.CI_JOB_URL)
        return env.CI_JOB_URL;
    if (env.SYSTEM_COLLECTIONURI && env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID)
        return `${env.SYSTEM_COLLECTIONURI}${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${env.BUILD_BUILDID}`;
    return undefined;
}
function firstSet(sources) {
    for (const [from, value] of sources)
        if (typeof value === 'string' && value.trim() !== '')
            return { from, value: value.trim() };
    return undefined;
}

;// CONCATENATED MODULE: ./src/cli/main.ts
// One command line run: read it and the environment, install the CLI's port, run the engine's run() with the
// process's signals, write the outputs in the formats asked for and the CI's own, and give the exit code derived
// from how the run ended. src/cli/index.ts is the command.













/** Runs one command line; resolves with the exit code. */
async function main(args, env = process.env) {
    // The emulator reads its own flags (brcloud emulator --help): none of the engine's inputs apply to it.
    if (args[0] === 'emulator')
        return runEmulator(args.slice(1));
    let invocation;
    let values;
    let context;
    try {
        invocation = parseCommandLine(args);
        if (invocation.kind === 'help')
            return print(invocation.command ? commandHelp(invocation.command) : mainHelp());
        if (invocation.kind === 'version')
            return print(`${version()}\n`);
        values = collectInputs(invocation.command, invocation.flags, env);
        context = cliRunContext(invocation.flags, env);
        checkCommand(invocation.command, values, context);
    }
    catch (error) {
        if (!(error instanceof UsageError))
            throw error;
        process.stderr.write(`error: ${error.message}\n`);
        return EXIT.badInput;
    }
    const azure = underAzure(env);
    const port = createCliPort({
        values,
        write: (text) => process.stderr.write(text),
        colour: process.stderr.isTTY === true && !env.NO_COLOR,
        debug: invocation.debug || env.BRCLOUD_DEBUG === 'true',
        summaryFile: invocation.summaryFile,
        context,
        issue: azure ? (type, message) => process.stdout.write(azureIssue(type, message)) : undefined,
        runner: await gitHubRunner(env)
    });
    (0,src_port/* usePort */.ny)(port);
    // Masked the moment they are known: the engine registers them again as it reads them, which is harmless.
    for (const name of SECRET_INPUTS)
        (0,secrets/* registerSecret */.cl)(values.get(name));
    // run() ends the process's stop itself (a hung call may hold a socket): the exit below does it, with the run's code.
    const ending = await run({ signals: process, exit: () => undefined });
    await writeOutputs(port, invocation.dotenvFile, invocation.json, azure);
    return exitCode(ending);
}
/** The outputs in every format asked for: the --dotenv file, Azure's output variables, the --json object (last, on stdout). */
async function writeOutputs(port, dotenvFile, json, azure) {
    if (dotenvFile !== undefined) {
        try {
            await (0,promises_.writeFile)(dotenvFile, dotenvOf(port.outputs, (message) => port.warning(message)));
        }
        catch (error) {
            port.warning(`--dotenv: ${dotenvFile} could not be written (${error.code ?? String(error)}).`);
        }
    }
    if (azure)
        await print(azureEnding(port.outputs, port.failure));
    if (json)
        await print(`${JSON.stringify(port.outputs)}\n`);
}
/**
 * In a GitHub Actions `run:` step, the runner's output and summary files, written by the action's own port (one
 * writer of @actions/core's file-command format); loaded only there. Elsewhere none.
 */
async function gitHubRunner(env) {
    if (env.GITHUB_ACTIONS !== 'true')
        return undefined;
    const { actionPort } = await Promise.all(/* import() */[__nccwpck_require__.e(752), __nccwpck_require__.e(260), __nccwpck_require__.e(264), __nccwpck_require__.e(359)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2359));
    return {
        // Without the runner's file, @actions/core would print a workflow command on stdout, where --json goes.
        setOutput: (name, value) => (env.GITHUB_OUTPUT ? actionPort.setOutput(name, value) : undefined),
        writeSummary: (markdown) => actionPort.writeSummary(markdown)
    };
}
/** Which command fits the inputs: a deploy needs a distribution source, a search check a query; GitHub's calls a repository. */
function checkCommand(command, values, context) {
    const set = (name) => (values.get(name) ?? '').trim() !== '';
    const source = set('distribution') || set('distribution-id') || set('from-environment');
    if (command === 'deploy' && !source && set('search-query'))
        throw new UsageError('brcloud deploy needs distribution, distribution-id or from-environment; to run only the search check, use brcloud search-check.');
    if (command === 'search-check' && !set('search-query'))
        throw new UsageError('brcloud search-check needs search-query (--search-query or BRCLOUD_SEARCH_QUERY).');
    if (command === 'deploy' && set('github-token') && context.repository === '')
        throw new UsageError('github-token is set, so the run records GitHub Deployments: name their repository with --repository owner/name or BRCLOUD_REPOSITORY.');
}
function print(text) {
    return new Promise((resolve) => process.stdout.write(text, () => resolve(EXIT.success)));
}

;// CONCATENATED MODULE: ./src/cli/index.ts
// The brcloud command (docs/cli.md): the CLI's face of the engine. main() does the work; this ends the
// process with its code at once, since a call stopped by a cancel may still hold a socket open.



main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    process.stderr.write(`error: ${(0,secrets/* redact */.E$)(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(EXIT.failure);
});

