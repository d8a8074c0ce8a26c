export const id = 82;
export const ids = [82];
export const modules = {

/***/ 69082:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  s: () => (/* binding */ defined),
  a: () => (/* binding */ planRunTrace)
});

;// CONCATENATED MODULE: ./src/deploy/release-state.ts
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
    return { environment, distributionId, previous, redeploy: sameId(previous, distributionId), state: 'planned', transitions: [] };
}
/** Moves the release on, recording why; logs the step so the log and the summary tell the same story. */
function enter(release, state, evidence, at = Date.now()) {
    if (!NEXT[release.state].includes(state))
        throw new Error(`Release: no transition from ${release.state} to ${state} (${evidence})`);
    release.state = state;
    release.transitions.push({ state, at, evidence });
    core.info(`Release ${state}: ${evidence}`);
}
function release_state_reached(release, state) {
    return release?.transitions.find((t) => t.state === state);
}
/** The deploy call went through (sent and answered, or adopted after a lost answer). */
function release_state_wasRequested(release) {
    return release_state_reached(release, 'requested') !== undefined;
}
/** A deploy request of ours went out whose outcome no answer or look settled: it may have been carried out. */
function mayHaveBeenRequested(release) {
    return !release_state_wasRequested(release) && release_state_reached(release, 'unconfirmed') !== undefined;
}
/**
 * Our deploy was requested and its switch was not seen, and neither a rollback nor another deploy came after it: the
 * platform may still switch to it, also after the step ended (a stop does not ask the platform to stop).
 */
function mayStillSwitch(release) {
    return (release_state_wasRequested(release) &&
        release_state_reached(release, 'applied') === undefined &&
        release_state_reached(release, 'rollback-requested') === undefined &&
        release_state_reached(release, 'replaced') === undefined);
}
/** A rollback was applied: after it was requested, the environment reported the previous distribution again. */
function rolledBack(release) {
    return release_state_reached(release, 'rollback-applied') !== undefined;
}

// EXTERNAL MODULE: ./src/cloud/platform-reading.ts
var platform_reading = __webpack_require__(9079);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/advice.ts
var advice = __webpack_require__(96031);
// EXTERNAL MODULE: ./src/code-host/port.ts
var port = __webpack_require__(95591);
// EXTERNAL MODULE: ./src/code-host/evidence.ts
var code_host_evidence = __webpack_require__(80637);
;// CONCATENATED MODULE: ./src/deploy/order.ts






/** The deploy was refused: the environment runs a newer commit, or the order could not be checked. Nothing was deployed. */
class OrderRefused extends (/* unused pure expression or super */ null && (ActionError)) {
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
    /** The last check found no record of the promoted distribution's commit: one made since is looked for before each call. */
    oursUnrecorded = false;
    /** Our commit as the last check found it, also when that check then ended unknown (the host failed, or did not know the running commit). */
    oursSeen;
    constructor(o) {
        this.o = o;
        this.history = o.host ? new DeploymentHistory(o.host, o.apiUrl) : undefined;
    }
    /** This run's own recorded deployment: never named as the one holding the environment. */
    noteOwnDeployment(id) {
        this.ownDeployment = id;
    }
    /** The commit this run deploys, with its evidence, as the last check found it (whatever its order): what the deploy is recorded at. */
    get oursEvidence() {
        return this.last?.ours ?? this.oursSeen;
    }
    /** The commit this run deploys: a promoted distribution's, or this run's own. */
    async ours() {
        if (this.o.promoted === undefined)
            return this.o.host?.sha ? { sha: this.o.host.sha, from: 'run' } : undefined;
        const id = this.o.promoted;
        return this.history?.commitOf(id, undefined, () => this.facts(id));
    }
    /** Checks the order against what the environment runs; throws OrderRefused when ours is older, or the code's host cannot be read (unless allowed). */
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
        if (last === undefined || look.distributionId === undefined)
            return;
        if (!sameId(look.distributionId, last.runningDistributionId)) {
            this.o.log(`'${this.o.environment}' now runs ${look.distributionId}, not ${last.runningDistributionId ?? 'nothing'}: checking the deploy order again.`);
            await this.check(look.distributionId, true);
            return;
        }
        const ours = await this.oursRecordedSince(last);
        if (ours === undefined)
            return;
        this.o.log(`A ${this.noun} now records ${this.o.promoted ?? 'the distribution'} as commit ${short(ours.sha)}: checking the deploy order again.`);
        await this.check(look.distributionId, true);
    }
    /**
     * A promoted distribution whose commit no record named at the last check, now recorded (another job deploying the same
     * distribution records it while we wait): its commit, or undefined when still unknown or the host cannot say now (the
     * last check stands).
     */
    async oursRecordedSince(last) {
        if (!this.oursUnrecorded || last.failed === true || this.history === undefined)
            return undefined;
        this.history.refresh();
        try {
            return await this.ours();
        }
        catch (error) {
            if (!(error instanceof CodeHostCallFailed))
                throw error;
            return undefined;
        }
    }
    /** Who holds the busy environment: a recorded deployment under way (with its run), or the distribution it reports and who uploaded it. */
    async holder(look) {
        const parts = [];
        try {
            const underWay = await this.history?.underWay(this.o.environment, this.ownDeployment);
            if (underWay?.deployment) {
                parts.push(`${this.noun} ${underWay.deployment.id} of commit ${short(underWay.sha)} is ${underWay.deployment.state ?? 'under way'} (${madeBy(underWay)})`);
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
    /** How the host calls a recorded deployment, for what the check says. */
    get noun() {
        return this.o.host?.deploymentNoun ?? 'GitHub Deployment';
    }
    /** No record names the distribution: GitHub's Deployments were read; GitLab's keep no distribution to read. */
    noRecordOf(id, project) {
        if (this.o.host?.keepsPayload === false)
            return `${this.o.host.host}'s deployments do not record distributions (so none names ${id})`;
        return `no ${this.noun} of ${project} recorded distribution ${id}`;
    }
    async evaluate(runningId) {
        const base = { runningDistributionId: runningId, running: undefined, ours: undefined, repoUrl: this.o.host?.repoUrl, host: this.o.host?.host };
        const history = this.history;
        if (history === undefined)
            return { ...base, order: 'unknown', why: `github-token is not set (the check needs a token with ${PERMISSIONS})` };
        history.refresh();
        this.known.clear();
        try {
            const ours = await this.ours();
            this.oursSeen = ours;
            this.oursUnrecorded = ours === undefined && this.o.promoted !== undefined;
            if (ours === undefined)
                return { ...base, order: 'unknown', why: await this.noCommitOfOurs(), ...(await this.nameUnread(this.o.promoted)) };
            if (runningId === undefined)
                return { ...base, ours, order: 'unknown', why: `'${this.o.environment}' runs no distribution, so there is no commit to compare with` };
            const facts = () => this.facts(runningId);
            const running = await history.commitOf(runningId, this.o.environment, facts);
            const outside = await this.outside(history, runningId, facts);
            if (running === undefined) {
                const why = `${this.noRecordOf(runningId, history.host.project)}, which '${this.o.environment}' runs, and ${await this.nameClause(runningId)}`;
                return { ...base, ours, outside, order: 'unknown', why, ...(await this.nameUnread(runningId)) };
            }
            if (sameCommit(running.sha, ours.sha))
                return { ...base, ours, running, outside, order: 'identical' };
            const comparison = await history.host.compare(running.sha, ours.sha);
            return { ...base, ours, running, outside, comparison, order: comparison.status };
        }
        catch (error) {
            // The run's stop (a cancel, the watchdog), or a bug: not the host's failure.
            if (!(error instanceof CodeHostCallFailed))
                throw error;
            // A commit the host does not know (a force-push removed it, or another repository's) is missing evidence, not a failure.
            if (error.failure === 'not-found' && error.call.startsWith('Comparing ')) {
                return {
                    ...base,
                    order: 'unknown',
                    why: `${error.message}: ${error.host} does not know one of the two commits (a force-push may have removed it), so they cannot be compared`
                };
            }
            return { ...base, order: 'unknown', failed: true, failedOn: 'host', why: `${error.message}; ${hostAdvice(error, this.o.host?.project ?? '')}` };
        }
    }
    /**
     * The platform's facts of a distribution (its name, who uploaded it), asked once per check; only the id when it cannot
     * say. A distribution the stack no longer holds (deleted while an environment runs it: 404) has a name no one can read
     * now, not one without a commit.
     */
    facts(id) {
        let known = this.known.get(id);
        if (known === undefined) {
            known = this.o.client.getDistribution(id).then((d) => (d === undefined ? { id, unread: GONE_FROM_STACK } : { id, name: d.name, createdBy: d.createdBy, createdAt: d.createdAt }), (error) => ({ id, unread: describeError(error) }));
            this.known.set(id, known);
        }
        return known;
    }
    async noCommitOfOurs() {
        if (this.o.promoted === undefined)
            return `this run has no commit (${core.runContext().noCommit})`;
        return `${this.noRecordOf(this.o.promoted, 'this repository')}, and ${await this.nameClause(this.o.promoted)}`;
    }
    /**
     * A name the platform could not say, where names are the only evidence (the host keeps no payload: GitLab): the commit
     * may well be known, just not read, so the check failed (refused unless allow-unchecked-order), as when the host fails.
     * On GitHub a distribution no Deployment recorded is one deployed outside this action: its order stays unknown.
     */
    async nameUnread(id) {
        if (id === undefined || this.o.host?.keepsPayload !== false || (await this.facts(id)).unread === undefined)
            return {};
        return { failed: true, failedOn: 'name' };
    }
    /** What the name told of the commit: none of this repository, or nothing at all when the platform could not say it. */
    async nameClause(id) {
        const unread = (await this.facts(id)).unread;
        return unread === undefined ? 'its name carries no commit of this repository' : `its name could not be read (${unread})`;
    }
    /** The environment runs what no Deployment of it recorded, while others were: it was changed outside this action. */
    async outside(history, runningId, facts) {
        const other = await history.recordedOther(this.o.environment, runningId);
        if (other === undefined)
            return undefined;
        return (`'${this.o.environment}' runs ${runningId}${uploaded(await facts())}, which no ${this.noun} of this repository recorded for '${this.o.environment}' ` +
            `(the last one, ${other.id}, recorded ${other.payload.distributionId ?? '?'} of commit ${short(other.sha)}): it was deployed outside this action ` +
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
        const pair = `commit ${short(ours.sha)} (${order_evidence(ours)}) and ${short(running.sha)}, which ${env} runs (${order_evidence(running)})`;
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
        const host = this.o.host?.host ?? 'GitHub';
        if (check.order === 'unknown') {
            return (`${would}: the deploy order on '${this.o.environment}' could not be checked: ${check.why ?? `${host} failed`}. ` +
                `${host === 'GitLab' ? 'gitlab-token' : 'github-token'} asks for the check, and it cannot be made, ${nothing}. ` +
                `To deploy while ${check.failedOn === 'name' ? 'the commits cannot be read' : `${host} cannot be read`}, set allow-unchecked-order: true.`);
        }
        return (`${would}: commit ${short(ours?.sha ?? '?')} is older than ${short(running?.sha ?? '?')}, which '${this.o.environment}' runs ` +
            `(${running ? order_evidence(running) : '?'}; ${check.comparison?.behindBy ?? '?'} commit(s) newer). Deploying it would replace a newer release, ${nothing}. ` +
            `To go back to an older release on purpose, set allow-older-commit: true (with distribution-id or from-environment to restore a release already on the stack without a rebuild).`);
    }
}
/** What to do about a call to the code's host that failed, by how it failed and which host it was. */
function hostAdvice(error, project) {
    return error.host === 'GitLab' ? gitLabAdvice(error, project) : gitHubAdvice(error);
}
function gitHubAdvice(error) {
    switch (error.failure) {
        case 'unreachable':
            return "GitHub's API did not answer: check the runner's network (and its proxy, when one is set) and githubstatus.com";
        case 'bad-token':
            return `GitHub refused github-token (401): pass a valid token of this repository, e.g. ${giveGitHubToken('deployments: write and contents: read')}`;
        case 'forbidden':
            return `github-token lacks a permission (403): ${grantGitHubPermissions('deployments: write and contents: read')} (the check needs ${PERMISSIONS})`;
        case 'rate-limited':
            return "GitHub's rate limit for github-token was reached (no permission is missing): run again once it lifts";
        case 'not-found':
            return 'GitHub does not show this repository to github-token (404): use a token of this repository';
        default:
            return 'GitHub failed; run again later';
    }
}
function gitLabAdvice(error, project) {
    switch (error.failure) {
        case 'unreachable':
            return "GitLab's API did not answer: check gitlab-url, the network (and its proxy, when one is set) and the instance's status";
        case 'bad-token':
            return 'GitLab refused gitlab-token (401): pass a valid project or personal access token (scope read_api to check the order, api to record deployments; docs/gitlab.md)';
        case 'forbidden':
            return 'gitlab-token lacks a scope or role (403): read_api reads the order; api and the Developer role record deployments (docs/gitlab.md)';
        case 'rate-limited':
            return "GitLab's rate limit for gitlab-token was reached (no scope is missing): run again once it lifts";
        case 'not-found':
            return `GitLab does not show project ${project} to gitlab-token (404): check gitlab-project, and use a token that can read it`;
        default:
            return 'GitLab failed; run again later';
    }
}
/** One commit, full or abbreviated, is the other. */
function sameCommit(a, b) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x.startsWith(y) || y.startsWith(x);
}
/** Where a commit was learned from, in words. */
function order_evidence(c) {
    if (c.from === 'run')
        return "this run's commit";
    if (c.from === 'name')
        return `from the distribution's name ${c.name ?? ''}`.trim();
    return `${c.deployment?.noun ?? 'GitHub Deployment'} ${c.deployment?.id ?? '?'}, ${madeBy(c)}`;
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

;// CONCATENATED MODULE: ./src/deploy/changes.ts
// What is in the release (issue 43): the commits between the one the environment ran and ours, from the code host's
// compare, read once the deploy order is known (./order.ts) and before the deployment is recorded. Never fails
// the run: without a token, a commit, or an answer from GitHub the list is empty and says why. A rollback seen
// applied turns the list into what was taken out again (shownChanges), so every reader tells the same story.


/**
 * The commits of the release, from the deploy order's last check: GitHub's compare of the running commit with ours
 * (for an older commit, ours with the running one: what it takes out). A failure of GitHub's is logged and becomes the
 * list's `why`; anything else (the run's stop) is thrown.
 */
async function readChanges(github, check, log) {
    const empty = (why) => ({ commits: [], total: 0, direction: 'added', why, ...pair(check) });
    if (github === undefined)
        return { ...empty('github-token is not set'), withoutToken: true };
    const running = check.running?.sha;
    const ours = check.ours?.sha;
    if (check.order === 'unknown' || running === undefined || ours === undefined)
        return empty(`the deploy order is unknown: ${check.why ?? 'no evidence'}`);
    if (check.order === 'identical')
        return empty('the environment runs the same commit');
    const removed = check.order === 'behind';
    try {
        const listing = removed ? await github.commitsBetween(ours, running) : await github.commitsBetween(running, ours);
        const changes = {
            commits: listing.commits,
            total: listing.total,
            direction: removed ? 'removed' : 'added',
            ...pair(check),
            ...(check.order === 'diverged' && { alsoTakenOut: listing.behindBy }),
            ...(listing.pullLookups !== undefined && { pullLookups: listing.pullLookups })
        };
        log(changesLine(changes));
        return changes;
    }
    catch (error) {
        if (!(error instanceof CodeHostCallFailed))
            throw error;
        log(`The commits of the release were not listed: ${error.message}.`);
        return empty(`${error.host} failed: ${error.message}`);
    }
}
function pair(check) {
    return {
        running: check.running?.sha,
        ours: check.ours?.sha,
        ...(check.repoUrl !== undefined && { repoUrl: check.repoUrl }),
        ...(check.host !== undefined && { host: check.host })
    };
}
/** The log's line for a list read. */
function changesLine(c) {
    const between = `${short(c.running ?? '?')} and ${short(c.ours ?? '?')}`;
    const listed = c.commits.length < c.total ? ` (the first ${c.commits.length} listed)` : '';
    return c.direction === 'removed'
        ? `The release takes out ${c.total} commit(s) between ${between}${listed}.`
        : `The release brings ${c.total} commit(s) between ${between}${listed}.`;
}
/**
 * The changes as every reader shows them (the output, the summary, the events): after a rollback seen applied, the
 * commits the failed release brought, taken out again; a rolled back older commit took out nothing that stays out.
 */
function changes_shownChanges(d) {
    const c = d.changes;
    if (c === undefined || !rolledBack(d.release))
        return c;
    if (c.direction === 'added')
        return { ...c, direction: 'removed', rolledBack: true, alsoTakenOut: undefined };
    return {
        ...c,
        commits: [],
        total: 0,
        direction: 'removed',
        rolledBack: true,
        alsoTakenOut: undefined,
        why: 'the rollback put back what the older release had taken out: the environment runs the commit it ran before'
    };
}
/** The `changes` output's entries, oldest first. */
function changeEntries(c) {
    return (c?.commits ?? []).map((x) => ({ sha: x.sha, title: x.title, author: x.author ?? null, pullRequests: [...x.pullRequests] }));
}
/** The `changes` output: JSON of the entries ([] when unknown). */
function changesOutput(c) {
    return JSON.stringify(changeEntries(c));
}
/** How many commits the first `shown` leave out of the total. */
function moreThan(c, shown) {
    return Math.max(0, c.total - Math.min(shown, c.commits.length));
}
/** One commit in a line of text: "abc1234 Title (#12) by octocat"; pull requests the title does not name are added. */
function commitLine(x) {
    const named = x.pullRequests.filter((n) => !x.title.includes(`#${n}`));
    const pulls = named.length > 0 ? ` (${named.map((n) => `#${n}`).join(', ')})` : '';
    return `${short(x.sha)} ${x.title}${pulls}${x.author === undefined ? '' : ` by ${x.author}`}`;
}
/** What the list is, in a few words: "3 commit(s) brought", "2 commit(s) taken out by the rollback". */
function changesHeading(c) {
    if (c.rolledBack)
        return `${c.total} commit(s) taken out by the rollback`;
    if (c.direction === 'removed')
        return `${c.total} commit(s) taken out (an older commit deployed)`;
    return `${c.total} commit(s) brought`;
}
/** The most commits the job summary lists; the rest are counted. */
const SUMMARY_COMMITS = 20;
/** The job summary's section (Markdown lines): what the list is, the commits linked, "and N more", or why it is empty. */
function changes_changesSection(c, environment, max = SUMMARY_COMMITS) {
    const host = c.host ?? 'GitHub';
    const link = (sha) => (c.repoUrl ? `[\`${short(sha)}\`](${commitPage(host, c.repoUrl, sha)})` : `\`${short(sha)}\``);
    const pull = (n) => {
        const page = pullPage(host, c.repoUrl ?? '', n);
        return c.repoUrl ? `[${page.label}](${page.url})` : page.label;
    };
    const env = `'${environment}'`;
    if (c.total === 0)
        return [`No commits listed: ${c.why ?? 'none between the two commits'}.`];
    const lines = [sectionIntro(c, env, link)];
    if (c.commits.length > 0)
        lines.push('');
    for (const x of c.commits.slice(0, max)) {
        // One the title names already is not named again (as the host writes it: #12 or !12).
        const pulls = x.pullRequests.filter((n) => !x.title.includes(pullPage(host, '', n).label));
        const named = pulls.map(pull).join(', ');
        lines.push(`- ${link(x.sha)} ${markdownText(x.title)}${named ? ` (${named})` : ''}${x.author === undefined ? '' : ` — ${markdownText(x.author)}`}`);
    }
    const more = moreThan(c, max);
    if (more > 0)
        lines.push(`- and ${more} more`);
    if (c.alsoTakenOut)
        lines.push('', `Ours is on another branch: the deploy also takes out ${c.alsoTakenOut} commit(s) of ${link(c.running ?? '?')} that ours lacks.`);
    if (c.pullLookups !== undefined)
        lines.push('', `Not every commit was asked for its pull requests: ${c.pullLookups}.`);
    return lines;
}
function sectionIntro(c, env, link) {
    const running = link(c.running ?? '?');
    const ours = link(c.ours ?? '?');
    if (c.rolledBack)
        return `**${c.total} commit(s) taken out by the rollback:** the failed release, ${ours}, had brought them over ${running}, which ${env} ran:`;
    if (c.direction === 'removed')
        return `**${c.total} commit(s) taken out:** ${env} ran ${running}; ours, ${ours}, is older and lacks them.`;
    return `**${c.total} commit(s)** from ${running}, which ${env} ran, to ours, ${ours}:`;
}
/** Text as Markdown shows it literally: its control characters escaped. */
function markdownText(text) {
    return text.replace(/[\\`*_[\]<>|]/g, (ch) => `\\${ch}`);
}

// EXTERNAL MODULE: ./src/run-state.ts
var run_state = __webpack_require__(20518);
;// CONCATENATED MODULE: ./src/rules/record.ts
// What the release rules (docs/release-rules.md) found, as data: the deploy step fills it in as each rule is
// checked; report.ts, the GitHub Deployment and the events read it. A rule that refused names itself in `refusedBy`.
/** Each rule in the words of a sentence ("override-reason overrides the soak gate"). */
const record_RULE_WORDS = {
    freeze: 'the deploy freeze',
    soak: 'the soak gate',
    backup: 'the backup rule'
};

;// CONCATENATED MODULE: ./src/report.ts
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
    // What is in the release (deploy/changes.ts): after a rollback, what it took out; [] once the order was checked without a list.
    changes: ({ deploy }) => (deploy?.changes !== undefined || deploy?.order !== undefined ? changesOutput(changes_shownChanges(deploy)) : undefined),
    'site-url': ({ deploy }) => deploy?.siteUrl,
    'search-num-found': ({ search }) => search?.numFound,
    'search-latency-ms': ({ search }) => search?.latencyMs,
    'search-request-id': ({ search }) => search?.requestId,
    'trace-id': ({ trace }) => trace?.id
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
    if (release_state_wasRequested(release))
        return 'true';
    if (mayHaveBeenRequested(release))
        return release && !release.redeploy && lastLookShows(deploy, release.distributionId) ? 'true' : 'unknown';
    return deploy?.skipped || release ? 'false' : undefined;
}
/** 'true' once the rollback was seen applied; 'unknown' when one was requested (or may have been) but not seen applied; else 'false'. */
function rolledBackWord(release) {
    if (rolledBack(release))
        return 'true';
    return release && (release_state_reached(release, 'rollback-requested') || release.rollbackUnconfirmed !== undefined) ? 'unknown' : 'false';
}
/** The last look at the environment reported that id. */
function lastLookShows(deploy, id) {
    const look = deploy?.finalLook;
    return look !== undefined && !('error' in look) && (0,platform_reading/* sameId */.s)(look.distributionId, id);
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
                ? `Dry run: would upload ${d.archive.name} (${formatBytes(d.archive.size)}) to ${d.apiUrl}${then}.`
                : `Dry run: would use distribution ${d.distributionId ?? '?'} (${sourceText(d)})${then}.`;
            // The plan is in the log as it was made, and in the summary: the notice points there, not a third copy.
            lines.push(`${head} Nothing was changed.${d.plan.length > 0 ? ' The whole plan: the log above, and the job summary.' : ''}`);
        }
        else if (d.skipped) {
            lines.push(`'${d.environmentName ?? ''}' already runs ${what} on ${d.target}: nothing deployed. Set force-deploy: true to deploy it again.`);
        }
        else if (d.release) {
            const verified = reached(d.release, 'verified');
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
        ['Size', archive ? `${formatBytes(archive.size)} (${archive.size} bytes)` : d?.source === 'upload' || !d ? '—' : undefined],
        ['SHA-256', archive?.sha256 ? `\`${archive.sha256}\`` : d?.source === 'upload' || !d ? '—' : undefined],
        ['Environment', environmentCell(d, given)],
        ['Strategy', d?.environmentName ? d.strategy : undefined],
        ['Config files', d?.configFiles.length ? d.configFiles.map((n) => `\`${n}\``).join(', ') : undefined],
        ['Previous distribution', d?.previousDistributionId ? `\`${d.previousDistributionId}\`` : undefined],
        ...orderRows(d),
        ...ruleRows(d),
        ['Pruned distributions', d?.dryRun && d.wouldPrune !== undefined ? `would delete ${d.wouldPrune}` : d?.pruned === undefined ? undefined : String(d.pruned)],
        ['Token renewals', String(d?.tokenRenewals ?? 0)]
    ];
}
/** The deploy order: how our commit relates to the one the environment ran, and the commit before and after, linked. */
function orderRows(d) {
    const check = d?.order;
    if (d === undefined || check === undefined)
        return [];
    const link = (sha) => sha === undefined ? undefined : check.repoUrl ? `[\`${short(sha)}\`](${commitPage(check.host ?? 'GitHub', check.repoUrl, sha)})` : `\`${short(sha)}\``;
    const look = d.finalLook;
    const after = look === undefined || 'error' in look || look.distributionId === undefined
        ? undefined
        : sameId(look.distributionId, d.distributionId)
            ? check.ours?.sha
            : sameId(look.distributionId, check.runningDistributionId)
                ? check.running?.sha
                : undefined;
    const before = check.running ? `${link(check.running.sha) ?? ''} (${evidence(check.running)})` : undefined;
    return [
        ['Deploy order', `${check.order}: ${orderText(check)}`],
        ['Commit before', before],
        ['Commit after', check.ours || check.running ? (link(after) ?? 'not known') : undefined]
    ];
}
/** The release rules (docs/release-rules.md): what each found, and override-reason with what it overrode. */
function ruleRows(d) {
    const rules = d?.rules;
    if (rules === undefined)
        return [];
    const { freeze, soak, backup, override } = rules;
    const overridden = (rule) => (override?.overrode.includes(rule) ? ' (overridden by override-reason)' : '');
    const backupText = backup === undefined ? undefined : `${backupFound(backup)}${backup.passed ? '' : overridden('backup')}`;
    return [
        ['Deploy freeze', freeze ? `in force: ${freeze.window} (line ${freeze.line}) until ${freeze.until}${overridden('freeze')}` : undefined],
        ['Soak gate', soak ? `${soak.passed ? 'passed' : 'not passed'}: ${soakText(soak)}${soak.passed ? '' : overridden('soak')}` : undefined],
        ['Backup', backupText],
        [
            'Override',
            override
                ? `${override.reason}${override.overrode.length > 0 ? ` (overrode ${override.overrode.map((r) => RULE_WORDS[r]).join(', ')})` : ' (no rule needed it)'}`
                : undefined
        ]
    ];
}
/** The backup rule's finding: the newest backup and its age, none listed, or why the listing failed (nothing seen). */
function backupFound(backup) {
    const required = backup.requiredHours === undefined ? '' : `, younger than ${backup.requiredHours} hours required`;
    if (backup.listingFailed !== undefined)
        return `could not be listed (${backup.listingFailed})${required}`;
    if (backup.id === undefined)
        return `none listed${required}`;
    return `\`${backup.id}\`, taken ${backup.createdAt ?? '?'} (${backup.ageHours ?? '?'} hours old; younger than ${backup.requiredHours ?? '?'} required)`;
}
function soakText(soak) {
    if (soak.verifiedSince !== undefined)
        return `verified in '${soak.environment}' since ${soak.verifiedSince}, ${soak.soakedMinutes ?? 0} of ${soak.requiredMinutes} minute(s)${soak.allowedAt ? `; allowed from ${soak.allowedAt}` : ''}`;
    return soak.why ?? `'${soak.environment}'`;
}
/** A refusal by a release rule, in the headline's words. */
function refusedByRule(d, env) {
    const rules = d.rules;
    switch (rules?.refusedBy) {
        case 'freeze':
            return `❌ Refused: ${env} is in a deploy freeze until ${rules.freeze?.until ?? '?'}; nothing was deployed`;
        case 'soak':
            return `❌ Refused by the soak gate: \`${d.distributionId ?? '?'}\` was not verified long enough in '${rules.soak?.environment ?? '?'}'; nothing was deployed`;
        case 'backup':
            return `❌ Refused: ${backupRefusal(rules.backup, env)} (require-backup-hours: ${rules.backup?.requiredHours ?? '?'}); nothing was deployed`;
        default:
            return undefined;
    }
}
/** What the backup rule saw, in the headline's words: a failed listing saw nothing, so it claims no backup absent. */
function backupRefusal(backup, env) {
    if (backup?.listingFailed !== undefined)
        return `the backups of ${env} could not be listed`;
    if (backup?.id === undefined)
        return `no backup of ${env} is listed`;
    return `the newest backup of ${env} is ${backup.ageHours ?? '?'} hours old`;
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
    const sha = (c) => `\`${(0,port/* short */.h0)(c?.sha ?? '?')}\``;
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
        if (rolledBack(release))
            return `❌ Failed and rolled back: ${env} ${atTheEnd(d)}`;
        if (deployedWord(d) === 'true')
            return `❌ Failed: ${env} ${atTheEnd(d)}`;
        if (deployedWord(d) === 'unknown')
            return `❌ Failed: the deploy of ${id} may have been carried out (no answer or look settled it); ${env} ${atTheEnd(d)}`;
        const byRule = refusedByRule(d, env);
        if (byRule !== undefined)
            return byRule;
        if (d.order?.refused && d.order.order === 'unknown')
            return `❌ Refused: the deploy order on ${env} could not be checked (${d.order.failedOn === 'name' ? "a distribution's name could not be read" : `${d.order.host ?? 'GitHub'} could not be read`}); nothing was deployed`;
        if (d.order?.refused)
            return `❌ Refused: ${olderThan(d.order)}, which ${env} runs; nothing was deployed`;
        // The environment already ran the distribution (no deploy was needed), and a check of it failed: say which it runs.
        if (d.skipped)
            return `❌ Failed: nothing was deployed, as ${env} already ran ${id}; ${env} ${atTheEnd(d)}`;
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
    if (rolledBack(release))
        return `⏹ Cancelled after rolling back: ${env} ${now}`;
    if (release_state_reached(release, 'rollback-requested'))
        return `⏹ Cancelled during the rollback to \`${release.rollbackTo ?? '?'}\`, which was not seen applied: ${env} ${now}`;
    const rollback = d.rollback && release.state !== 'verified' ? ', and no rollback was applied' : '';
    if (deployedWord(d) === 'true' && mayStillSwitch(release))
        return `⏹ Cancelled: the deploy of ${id} was requested and not seen applied (the platform may still switch to it after the step ended)${rollback}; ${env} ${now}`;
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
        lines.push(`**Now:** ${'error' in look ? `what '${d.environmentName}' runs could not be looked at (${look.error})` : `'${d.environmentName}' ${describeLook(look)} (looked at when the step ended)`}.`);
    }
    if (release) {
        const verified = reached(release, 'verified');
        if (verified)
            lines.push(`**Verified by:** ${verified.evidence}.`);
        else if (wasRequested(release))
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
    rule: 'a deploy freeze began while the run waited (deploy-freeze)',
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
        const t = reached(release, state);
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
    const changes = d ? shownChanges(d) : undefined;
    // Without github-token the deploy order row already says why nothing is listed.
    if (changes !== undefined && !changes.withoutToken)
        lines.push('', '### Changes', '', ...changesSection(changes, d?.environmentName ?? ''));
    const transitions = d?.release?.transitions ?? [];
    if (transitions.length > 0) {
        const start = transitions[0]?.at ?? 0;
        lines.push('', '### Release', '', '| Time | State | Evidence |', '|---:|---|---|');
        for (const t of transitions)
            lines.push(`| ${formatDuration(t.at - start)} | ${t.state} | ${cell(t.evidence)} |`);
    }
    if (d?.dryRun && d.plan.length > 0)
        lines.push('', '### What the run would do', '', ...d.plan.map((p) => `- ${p}`));
    if (r.search)
        lines.push('', '### Search check', '', ...table(searchRows(r.search), 'Search'));
    if (r.phases.length > 0) {
        lines.push('', '### Phases', '', '| Phase | Time | |', '|---|---:|---|');
        for (const p of r.phases)
            lines.push(`| ${cell(p.name)} | ${formatDuration(p.ms)} | ${p.ok ? '✓' : '✗'} |`);
    }
    if (r.trace)
        lines.push('', traceLine(r.trace));
    return lines.join('\n') + '\n';
}
/** The trace's line: its id, and that it is sent after this summary (a warning in the log says when it was not). */
function traceLine(trace) {
    const joined = trace.joined ? ", in the pipeline's trace (TRACEPARENT)" : '';
    return `Trace \`${trace.id}\`${joined}: its spans are sent to ${trace.collector} after this summary; the log says if they were not.`;
}
/** Sets the outputs, shows the notices and writes the job summary of a run. */
async function report(run) {
    for (const [name, value] of Object.entries(outputValues(run)))
        core.setOutput(name, value);
    for (const line of notices(run))
        core.notice(line);
    // A face with nowhere to write it (a local run) skips it quietly, and the post step has nothing to read.
    if (await core.writeSummary(summaryMarkdown(run)))
        noteReported();
}

;// CONCATENATED MODULE: ./src/tracing/names.ts
// A phase's span name: the log group's title names ids and environments ("Wait until 'production' runs 6f1c…"), which
// a trace viewer would list as that many operations. The span is named by the kind of phase; the title stays as
// the brcloud.phase attribute.
/** Each phase's title as it begins (src/deploy, src/search-check.ts), and its span's name. */
const NAMES = [
    ['Build: ', 'build'],
    ['Prepare the distribution', 'prepare distribution'],
    ['Log in to ', 'login'],
    ['Find the config files', 'find config files'],
    ['Find environment ', 'find environment'],
    ['Find what ', 'find running distribution'],
    ['Check distribution ', 'check distribution'],
    ['Check the deploy order', 'check deploy order'],
    ['Check the soak gate', 'check soak gate'],
    ['Check the backups', 'check backups'],
    ['Look for an identical distribution', 'find identical distribution'],
    ['Prune old distributions', 'prune'],
    ['Upload the distribution', 'upload'],
    ['Deploy to ', 'deploy'],
    ['Wait until ', 'follow deploy'],
    ['Health check ', 'health check'],
    ['Roll back ', 'rollback'],
    ['Search check', 'search check']
];
/** The span name of a phase with this title; a title the table does not know keeps its first word ("phase" when it has none). */
function spanNameOf(title) {
    const known = NAMES.find(([prefix]) => title.startsWith(prefix));
    if (known !== undefined)
        return known[1];
    return title.split(/[\s:]/)[0]?.toLowerCase() || 'phase';
}
/** Every span name a phase may get: for the docs and the tests. */
const PHASE_SPAN_NAMES = NAMES.map(([, name]) => name);

;// CONCATENATED MODULE: ./src/tracing/plan.ts


/** The run's trace: one root span with the phases nested by time, the looks and release states as events, each health attempt and rollback step a span. */
function planRunTrace(result, facts) {
    const root = rootSpan(result, facts);
    const phases = nestPhases(root, result.phases, result, facts);
    const d = result.deploy;
    for (const look of d?.looks ?? [])
        innermost(root, phases, look.at, 'ends').events.push(lookEvent(look));
    for (const t of d?.release?.transitions ?? [])
        root.events.push(transitionEvent(t));
    for (const attempt of d?.healthAttempts ?? [])
        innermost(root, phases, attempt.startedAt, 'begins', attempt.endedAt).children.push(attemptSpan(attempt));
    const rollback = phases.find((p) => p.name === 'rollback');
    if (rollback !== undefined)
        rollback.children.push(...rollbackSteps(d, rollback));
    return freeze(root);
}
function rootSpan(result, facts) {
    const failed = result.error !== undefined;
    return {
        name: result.deploys ? 'brcloud deploy' : 'brcloud search-check',
        kind: 'internal',
        start: facts.startedAt,
        end: lastMoment(result, facts),
        attributes: { ...cicdAttributes(result, facts), ...deploymentAttributes(result, facts), ...brcloudAttributes(result, facts) },
        events: [],
        status: failed ? { code: 'error', message: result.error } : { code: 'ok' },
        children: []
    };
}
/**
 * When the run ended: when it reported, or later when a phase, an attempt or a look it still saw ended after that (a
 * stopped run's steps unwind while it reports): the root holds every moment the trace shows.
 */
function lastMoment(result, facts) {
    const d = result.deploy;
    return Math.max(facts.startedAt, facts.endedAt, ...result.phases.map((p) => p.startedAt + p.ms), ...(d?.healthAttempts ?? []).map((a) => a.endedAt), ...(d?.looks ?? []).map((l) => l.at), ...(d?.release?.transitions ?? []).map((t) => t.at));
}
/** The task-run attributes of OpenTelemetry's CICD conventions; the result in their words. */
function cicdAttributes(result, facts) {
    const { context } = facts;
    return defined({
        'cicd.pipeline.task.name': result.deploys ? 'brcloud deploy' : 'brcloud search-check',
        'cicd.pipeline.task.type': result.deploys ? 'deploy' : 'test',
        'cicd.pipeline.task.run.result': taskResult(result),
        'cicd.pipeline.run.id': context.runId || undefined,
        'cicd.pipeline.run.url.full': context.runUrl,
        'error.type': result.error === undefined ? undefined : errorType(result, facts.failure),
        'vcs.ref.head.revision': facts.observed?.commit ?? (context.sha || undefined),
        'vcs.ref.head.name': facts.observed === undefined ? context.ref || undefined : facts.observed.ref,
        // OpenTelemetry's VCS conventions: the repository's own name (no owner), and its address in full.
        'vcs.repository.name': context.repository.split('/').at(-1) || undefined,
        'vcs.repository.url.full': context.repository && context.serverUrl ? `${context.serverUrl.replace(/\/+$/, '')}/${context.repository}` : undefined
    });
}
function taskResult(result) {
    if (result.error === undefined)
        return 'success';
    if (result.stopped === 'watchdog')
        return 'timeout';
    if (result.stopped !== undefined)
        return 'cancellation';
    return 'failure';
}
/** Failure classes too general to group by: the release's failure kind, or _OTHER, says more. */
const GENERAL_ERRORS = new Set(['Error', 'ActionError', 'StepFailed']);
/**
 * What a viewer groups failures by: the stop, else the release's failure kind ("unhealthy", "not-applied", "busy",
 * "older", "search"…), else the failure's class ("InputError", "LoginRefused", "OrderRefused"), else _OTHER.
 */
function errorType(result, failure) {
    if (result.stopped === 'watchdog')
        return 'timeout';
    if (result.stopped !== undefined)
        return 'cancelled';
    const kind = result.deploy?.release?.failure?.kind;
    if (kind !== undefined)
        return kind;
    return failure instanceof Error && !GENERAL_ERRORS.has(failure.name) ? failure.name : '_OTHER';
}
/** The deployment's attributes (OpenTelemetry's deployment.*), only for a run the events speak of: one that deployed or meant to. */
function deploymentAttributes(result, facts) {
    const o = facts.observed;
    if (o === undefined)
        return defined({ 'deployment.environment.name': result.deploy?.environmentName ?? result.environment });
    return defined({
        'deployment.environment.name': o.environment,
        'deployment.id': o.chainId,
        'deployment.name': o.distribution.name,
        'deployment.status': o.outcome === 'success' ? 'succeeded' : 'failed'
    });
}
/** Outputs that are not attributes: the commits' list (JSON, long; its count is one), the trace's own id. */
const NOT_ATTRIBUTES = new Set(['changes', 'trace-id']);
/** Our own: every output the run set, as brcloud.<name with underscores>, and what the run was asked and found. */
function brcloudAttributes(result, facts) {
    const d = result.deploy;
    const outputs = {};
    for (const [name, value] of Object.entries(outputValues(result))) {
        if (!NOT_ATTRIBUTES.has(name) && value !== undefined)
            outputs[`brcloud.${name.replace(/-/g, '_')}`] = value;
    }
    return defined({
        ...outputs,
        'brcloud.stack': d?.target ?? facts.stack,
        'brcloud.environment': d?.environmentName ?? result.environment,
        'brcloud.source': d?.source,
        'brcloud.dry_run': d?.dryRun,
        'brcloud.outcome': headline(result),
        'brcloud.stopped': result.stopped,
        'brcloud.events': facts.observed?.events.map((e) => e.kind),
        'brcloud.changes.count': facts.observed?.changes?.total,
        ...uploadAttributes(d),
        'brcloud.token_renewals': d?.tokenRenewals,
        'brcloud.override_reason': d?.rules?.override?.reason,
        'brcloud.backup.id': d?.rules?.backup?.id,
        'brcloud.refused_by': d?.rules?.refusedBy,
        'brcloud.search.passed': result.search?.passed
    });
}
/** The archive's size, and the bytes the platform accepted (an upload this run made; none for a reused or given distribution). */
function uploadAttributes(d) {
    return defined({
        'brcloud.archive.size': d?.archive?.size,
        'brcloud.upload.bytes': d?.upload !== undefined && !d.upload.adopted ? d.archive?.size : undefined,
        'brcloud.upload.attempts': d?.upload?.attempts,
        'brcloud.upload.adopted': d?.upload?.adopted
    });
}
/**
 * The phases as spans, nested by time: a phase that began and ended within another (the release's follow within its
 * deploy) is its child. A phase still running when the run reported is not in the timeline, so no span claims it.
 */
function nestPhases(root, phases, result, facts) {
    const spans = [];
    const open = [];
    const failedLast = [...phases].reverse().find((p) => !p.ok);
    const ordered = [...phases].sort((a, b) => a.startedAt - b.startedAt || b.ms - a.ms);
    for (const phase of ordered) {
        const span = phaseSpan(phase, phase === failedLast ? result.error : undefined, facts);
        while (open.length > 0 && !within(span, open[open.length - 1]))
            open.pop();
        (open[open.length - 1] ?? root).children.push(span);
        open.push(span);
        spans.push(span);
    }
    return spans;
}
function phaseSpan(phase, failure, facts) {
    const start = Math.max(phase.startedAt, facts.startedAt);
    return {
        name: spanNameOf(phase.name),
        kind: 'internal',
        start,
        end: Math.max(start, phase.startedAt + phase.ms),
        attributes: { 'brcloud.phase': phase.name },
        events: [],
        status: phase.ok ? { code: 'ok' } : { code: 'error', message: failure },
        children: []
    };
}
function within(inner, outer) {
    return inner.start >= outer.start && inner.end <= outer.end;
}
/**
 * The deepest phase span running from `at` to `until`, else the root: where a look (a moment) or an attempt belongs. At
 * a boundary (one phase ends in the millisecond the next begins) a look belongs to the phase it ends (the follow's last
 * look), an attempt to the phase it begins (a health check's first attempt); a phase the attempt outlasts never holds it.
 */
function innermost(root, phases, at, moment, until = at) {
    const around = phases.filter((span) => span.start <= at && until <= span.end);
    const inside = around.filter((span) => (moment === 'ends' ? span.start < at : span.end > at));
    let found;
    for (const span of inside.length > 0 ? inside : around) {
        if (found === undefined || span.start > found.start || (span.start === found.start && span.end <= found.end))
            found = span;
    }
    return found ?? root;
}
function lookEvent(look) {
    return {
        name: 'look',
        at: look.at,
        attributes: defined({ 'brcloud.look.distribution_id': look.distributionId ?? '', 'brcloud.look.status': look.status })
    };
}
function transitionEvent(t) {
    return { name: `release ${t.state}`, at: t.at, attributes: { 'brcloud.release.state': t.state, 'brcloud.evidence': t.evidence } };
}
function attemptSpan(a) {
    return {
        name: 'GET',
        kind: 'client',
        start: a.startedAt,
        end: Math.max(a.startedAt, a.endedAt),
        attributes: defined({ 'http.request.method': 'GET', 'url.full': a.url, 'http.response.status_code': a.status, 'brcloud.health.result': a.what }),
        events: [],
        status: a.ok ? { code: 'unset' } : { code: 'error', message: a.what },
        children: []
    };
}
/** The rollback's steps, each from one observed state to the next within the rollback's phase: requested, seen applied, healthy. */
function rollbackSteps(d, phase) {
    const steps = [
        ['rollback request', 'rollback-requested'],
        ['rollback switch', 'rollback-applied'],
        ['rollback health', 'rollback-healthy']
    ];
    const seen = d?.release?.transitions ?? [];
    const spans = [];
    let from = phase.start;
    for (const [name, state] of steps) {
        const t = seen.find((x) => x.state === state);
        if (t === undefined || t.at < from || t.at > phase.end)
            break;
        spans.push({
            name,
            kind: 'internal',
            start: from,
            end: t.at,
            attributes: { 'brcloud.evidence': t.evidence },
            events: [],
            status: { code: 'ok' },
            children: []
        });
        from = t.at;
    }
    return spans;
}
function freeze(span) {
    const children = [...span.children].sort((a, b) => a.start - b.start).map(freeze);
    return { ...span, events: [...span.events].sort((a, b) => a.at - b.at), children };
}
/** The attributes that have a value: an attribute never says "undefined", nor lists nothing. */
function defined(attributes) {
    const out = {};
    for (const [key, value] of Object.entries(attributes))
        if (value !== undefined && !(Array.isArray(value) && value.length === 0))
            out[key] = value;
    return out;
}


/***/ })

};
