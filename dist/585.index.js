export const id = 585;
export const ids = [585];
export const modules = {

/***/ 2585:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  observeRun: () => (/* binding */ observeRun),
  uuidOf: () => (/* binding */ uuidOf)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/cloud/distribution-name.ts
var distribution_name = __webpack_require__(7103);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/deploy/release-state.ts
var release_state = __webpack_require__(350);
// EXTERNAL MODULE: ./src/report.ts
var report = __webpack_require__(665);
// EXTERNAL MODULE: ./src/deploy/changes.ts
var changes = __webpack_require__(3678);
;// CONCATENATED MODULE: ./src/events/observed.ts
// What a run tells chat and observability tools (issue 32): only what it observed, as data. events/from-run.ts
// derives an ObservedRun from the run's result; each sink (events/sinks/*.ts) turns it into its service's payload.
// Nothing here knows a service or the runner.
/** The most commits an event carries. */
const EVENT_COMMITS = 20;

;// CONCATENATED MODULE: ./src/events/from-run.ts
// What a run tells others (issue 32), derived from its result alone: no new look, no new request. The moments come
// from the release's transitions with the times they were seen (the switch seen, not the request; the rollback seen
// applied), and a failed run adds one ending. docs/events.md has the table of which event when.







/**
 * The run as the sinks see it; undefined when it has nothing to tell: a dry run (nothing changed), a search check
 * alone or an upload with no environment (no environment to speak of), a deploy skipped because the environment
 * already ran the distribution (nothing changed). A run that deployed and saw nothing (follow-deploy: false, green)
 * gives a run with no events: the CDEvents sink sends none, a chat sink may still post its headline.
 */
function observeRun(result, facts) {
    const d = result.deploy;
    const environment = d?.environmentName ?? result.environment;
    if (!result.deploys || d?.dryRun || environment === undefined)
        return undefined;
    if (result.error === undefined && d?.skipped)
        return undefined;
    const { context } = facts;
    const stack = d?.target ?? facts.stack ?? 'unknown';
    const events = [...moments(d?.release, d?.foundDistributionId), ...ending(result, facts)];
    return {
        chainId: uuidOf(`chain/${attemptName(context, facts.startedAt, stack, environment)}`),
        runKey: `${context.runId}-${context.runAttempt}`,
        stack,
        environment,
        apiUrl: d?.apiUrl ?? '',
        consoleUrl: d?.consoleUrl,
        distribution: distributionOf(d),
        previousDistributionId: d?.release?.previous ?? d?.previousDistributionId,
        nowRunning: d?.finalLook && !('error' in d.finalLook) ? d.finalLook.distributionId : undefined,
        ...commitOf(d, facts),
        repository: context.repository || undefined,
        runUrl: context.runUrl,
        actor: context.actor,
        startedAt: facts.startedAt,
        endedAt: facts.endedAt,
        outcome: result.error === undefined ? 'success' : result.stopped === 'cancel' || result.stopped === 'terminate' ? 'cancelled' : 'failure',
        headline: (0,report/* headline */.Pl)(result),
        releaseState: d?.release?.state,
        error: result.error,
        ...(d !== undefined && changesOf(d)),
        ...rulesOf(d?.rules),
        events
    };
}
/** The release's commits, as the summary shows them (after a rollback, what it took out), capped; none without github-token. */
function changesOf(d) {
    const c = (0,changes/* shownChanges */.ph)(d);
    // Without github-token nothing could be asked: no list to speak of.
    if (c === undefined || c.withoutToken)
        return {};
    return {
        changes: {
            direction: c.direction,
            rolledBack: c.rolledBack === true,
            total: c.total,
            commits: (0,changes/* changeEntries */.t9)(c).slice(0, EVENT_COMMITS),
            ...(c.total === 0 && c.why !== undefined && { why: c.why })
        }
    };
}
/** The rules' facts: the override reason, the backup found, the rule that refused; nothing when none applies. */
function rulesOf(rules) {
    const found = {
        ...(rules?.override !== undefined && { overrideReason: rules.override.reason, overrode: [...rules.override.overrode] }),
        ...(rules?.backup?.id !== undefined && { backupId: rules.backup.id, backupCreatedAt: rules.backup.createdAt }),
        ...(rules?.refusedBy !== undefined && { refusedBy: rules.refusedBy })
    };
    return Object.keys(found).length === 0 ? {} : { rules: found };
}
/**
 * The release's moments, each at the time its evidence was seen: ours seen running ('applied': the switch, or the
 * new release's marker), deployed when the environment ran nothing before (neither when the run found it nor right
 * before its deploy call: a look that reports no id while another deploy switches says nothing of what ran), else
 * upgraded (a redeploy of the same distribution too); published once verified (every check passed and a look after
 * them still showed ours: our reading of "published"); rolled back once the rollback was seen applied.
 */
function moments(release, found) {
    const events = [];
    const add = (kind, state) => {
        const t = (0,release_state/* reached */.V6)(release, state);
        if (t)
            events.push({ kind, at: t.at, evidence: t.evidence });
    };
    add(release?.previous === undefined && found === undefined ? 'deployed' : 'upgraded', 'applied');
    add('published', 'verified');
    add('rolledback', 'rollback-applied');
    return events;
}
/** A failed run's one ending, at the run's end: cancelled, refused, unconfirmed or failed (the first that holds). */
function ending(result, facts) {
    if (result.error === undefined)
        return [];
    return [{ kind: endingKind(result, facts.failure), at: facts.endedAt, evidence: result.error }];
}
function endingKind(result, failure) {
    if (result.stopped !== undefined)
        return 'cancelled';
    const d = result.deploy;
    const release = d?.release;
    const deployed = (0,report/* deployedWord */.dH)(d);
    const rollbackUnsettled = release !== undefined && (0,release_state/* reached */.V6)(release, 'rollback-requested') !== undefined && !(0,release_state/* reached */.V6)(release, 'rollback-applied');
    if (deployed === 'unknown' || rollbackUnsettled || release?.rollbackUnconfirmed !== undefined)
        return 'unconfirmed';
    if (deployed === 'true')
        return 'failed';
    const refused = failure instanceof errors/* InputError */.dz ||
        (0,errors/* refusesLogin */.LG)(failure) ||
        d?.order?.refused === true ||
        d?.rules?.refusedBy !== undefined ||
        release?.failure?.kind === 'busy' ||
        release?.failure?.kind === 'older';
    return refused ? 'refused' : 'failed';
}
/**
 * The commit the events name, with the ref it was built for: this run's own for an upload. A promotion
 * (distribution-id, from-environment) deploys what another run built: the distribution's commit as the deploy order's
 * evidence found it (a GitHub Deployment that recorded it, or its default name), else the name alone (without
 * github-token), else none; never the promoting run's commit, and no ref (which branch built it is not known).
 */
function commitOf(d, facts) {
    const { context } = facts;
    const promotion = d === undefined ? facts.promotion === true : d.source !== 'upload';
    if (!promotion)
        return { commit: context.sha || undefined, ref: context.ref || undefined };
    const ours = d?.order?.ours;
    if (ours !== undefined && ours.from !== 'run')
        return { commit: ours.sha.toLowerCase(), ref: undefined };
    const repository = context.repository.split('/')[1] ?? '';
    return { commit: (0,distribution_name/* commitInName */.YP)(d?.knownName, repository), ref: undefined };
}
/** The distribution the run deployed (or meant to: a refused run names the archive it did not upload). */
function distributionOf(d) {
    const archive = d?.archive;
    return {
        id: d?.distributionId,
        name: d?.upload?.storedName ?? archive?.name ?? d?.knownName,
        md5: archive?.md5 ?? d?.knownMd5,
        sha256: archive?.sha256
    };
}
/**
 * One release attempt, written so that no two read alike: the CI's run and its attempt, the moment this run began
 * (two deploys in one CI run attempt, such as two `brcloud deploy` in one Jenkins build, are two attempts), the stack
 * and the environment. Every event id is derived from it: the same event keeps its id, no other event shares it.
 */
function attemptName(context, startedAt, stack, environment) {
    return JSON.stringify([context.runId, context.runAttempt, startedAt, stack, environment]);
}
/** A stable id in the form of a UUID (version 4 bits, RFC 4122 variant), from a name: the same name, the same id. */
function uuidOf(name) {
    const b = (0,external_node_crypto_.createHash)('sha256').update(name).digest().subarray(0, 16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}


/***/ })

};
