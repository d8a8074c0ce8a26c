export const id = 761;
export const ids = [761,585];
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


/***/ }),

/***/ 761:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  sinksFor: () => (/* binding */ sinksFor)
});

// EXTERNAL MODULE: ./src/events/from-run.ts + 1 modules
var from_run = __webpack_require__(2585);
;// CONCATENATED MODULE: ./src/events/sinks/facts.ts
/** The moment our release was seen live: the first deploy into an empty environment, or the switch seen. */
function releaseSeen(run) {
    return run.events.find((e) => e.kind === 'deployed' || e.kind === 'upgraded');
}
/** The moment our rollback was seen applied. */
function rollbackSeen(run) {
    return run.events.find((e) => e.kind === 'rolledback');
}
/** The run's ending: the last moment observed. */
function ending(run) {
    return run.events.at(-1);
}
/**
 * Whether the run tried to change the environment: a release or rollback seen, or a release begun
 * (any release state but waiting). A refusal comes before any deploy, and a run without an
 * environment deploys nothing: neither is a mark on an observability timeline.
 */
function triedRelease(run) {
    if (run.environment === undefined || ending(run)?.kind === 'refused')
        return false;
    if (releaseSeen(run) || rollbackSeen(run))
        return true;
    return run.releaseState !== undefined && run.releaseState !== 'waiting';
}
/** "acme/production": the environment named by its stack. */
function place(run) {
    return run.environment === undefined ? run.stack : `${run.stack}/${run.environment}`;
}
/**
 * A distribution as every event names it, the one identity a consumer matches: the platform's id, in lower case (its
 * ids are hex, and one answer may give them in another case than the next). A rollback knows the distribution it
 * restored by this id alone, so the event that deployed it names it the same way.
 */
function distributionKey(id) {
    return id.toLowerCase();
}
/** The distribution as people name it: its name, else its id. */
function distributionLabel(run) {
    return run.distribution.name ?? run.distribution.id;
}
function shortSha(sha) {
    return sha.slice(0, 7);
}
/** The repository's page: on the server the run's page is on (GitHub Enterprise), else github.com. */
function repositoryUrl(run) {
    if (run.repository === undefined)
        return undefined;
    const marker = `/${run.repository}/`;
    const at = run.runUrl?.indexOf(marker) ?? -1;
    const server = run.runUrl !== undefined && at > 0 ? run.runUrl.slice(0, at) : 'https://github.com';
    return `${server}/${run.repository}`;
}
/** The commit's page, when both the repository and the commit are known. */
function commitUrl(run) {
    const repo = repositoryUrl(run);
    return repo !== undefined && run.commit !== undefined ? `${repo}/commit/${run.commit}` : undefined;
}
/** "2025-05-06 10:01:35 UTC". */
function utc(ms) {
    return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
function iso(ms) {
    return new Date(ms).toISOString();
}
const WORDS = {
    deployed: 'Deployed (the environment ran nothing before)',
    upgraded: 'Switched to our release',
    published: 'Published (the health check passed)',
    rolledback: 'Rolled back',
    refused: 'Refused',
    unconfirmed: 'Not settled',
    cancelled: 'Cancelled',
    failed: 'Failed'
};
/** What the run observed, a line per moment: "2025-05-06 10:01:35 UTC · Switched to our release: <evidence>". */
function timeline(run, maxEvidence = 300) {
    return run.events.map((e) => `${utc(e.at)} · ${WORDS[e.kind]}: ${truncate(e.evidence, maxEvidence)}`);
}
/** What runs now by the last look, or that it was not seen; for a rollback, that it is the previous distribution. */
function nowRunningText(run) {
    if (run.nowRunning === undefined)
        return 'not seen when the run ended';
    const previous = rollbackSeen(run) && run.previousDistributionId !== undefined && sameId(run.nowRunning, run.previousDistributionId);
    return previous ? `${run.nowRunning} (the previous distribution, rolled back to)` : run.nowRunning;
}
function sameId(a, b) {
    return a.toLowerCase() === b.toLowerCase();
}
/** At most `max` characters, an ellipsis where it was cut. */
function truncate(text, max) {
    return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
/** The release's commits in lines of text: what the list is, a line per commit (at most `max`), "and N more"; [] when not read. */
function changesText(run, max = 10) {
    const c = run.changes;
    if (c === undefined)
        return [];
    if (c.total === 0)
        return [`No commits listed: ${c.why ?? 'none between the two commits'}`];
    const what = c.rolledBack ? 'taken out by the rollback' : c.direction === 'removed' ? 'taken out (an older commit deployed)' : 'in the release';
    const lines = [`${c.total} commit(s) ${what}:`];
    for (const x of c.commits.slice(0, max)) {
        const pulls = x.pullRequests.filter((n) => !x.title.includes(`#${n}`));
        lines.push(`${shortSha(x.sha)} ${truncate(x.title, 200)}${pulls.length > 0 ? ` (${pulls.map((n) => `#${n}`).join(', ')})` : ''}${x.author === null ? '' : ` by ${x.author}`}`);
    }
    const more = c.total - Math.min(max, c.commits.length);
    if (more > 0)
        lines.push(`and ${more} more`);
    return lines;
}
/** The release rules' facts as titled values: the override reason, the backup found, the rule that refused. */
function rulesFacts(run) {
    const r = run.rules;
    if (r === undefined)
        return [];
    const facts = [];
    if (r.overrideReason !== undefined) {
        const overrode = r.overrode !== undefined && r.overrode.length > 0 ? ` (overrode ${r.overrode.join(', ')})` : '';
        facts.push({ title: 'Override reason', value: `${r.overrideReason}${overrode}` });
    }
    if (r.backupId !== undefined)
        facts.push({ title: 'Backup', value: `${r.backupId}${r.backupCreatedAt === undefined ? '' : ` (made ${r.backupCreatedAt})`}` });
    if (r.refusedBy !== undefined)
        facts.push({ title: 'Refused by', value: `the ${r.refusedBy} rule` });
    return facts;
}
/** "; override: <reason>" for a one-line message, or '' without one. */
function overrideText(run) {
    return run.rules?.overrideReason === undefined ? '' : `; override: ${run.rules.overrideReason}`;
}

// EXTERNAL MODULE: ./src/events/sinks/post.ts
var sinks_post = __webpack_require__(894);
;// CONCATENATED MODULE: ./src/events/cdevents.ts



const CDEVENTS_SPEC_VERSION = '0.5.1';
/** The event type of each moment: the spec's service events, and our own (dev.cdeventsx.<tool>-<subject>) for the endings. */
const CDEVENT_TYPES = {
    deployed: 'dev.cdevents.service.deployed.0.3.0',
    upgraded: 'dev.cdevents.service.upgraded.0.3.0',
    published: 'dev.cdevents.service.published.0.3.0',
    rolledback: 'dev.cdevents.service.rolledback.0.3.0',
    refused: 'dev.cdeventsx.brcloud-release.refused.0.1.0',
    unconfirmed: 'dev.cdeventsx.brcloud-release.unconfirmed.0.1.0',
    cancelled: 'dev.cdeventsx.brcloud-release.cancelled.0.1.0',
    failed: 'dev.cdeventsx.brcloud-release.failed.0.1.0'
};
/**
 * A distribution as a package URL, by the platform's id: pkg:generic/<id> (distributionKey: in lower case). Every
 * event names a distribution this way, the one a run deployed and the one a rollback restored alike, so a consumer
 * matches them; the file name and MD5, known only for what this run uploaded or promoted, travel in customData.
 */
function purlOf(id) {
    return `pkg:generic/${encodeURIComponent(distributionKey(id))}`;
}
/** The event's id: from the release attempt's chain and the moment; the same event keeps it, no other event shares it. */
function eventId(run, event, index) {
    return (0,from_run.uuidOf)(`event/${run.chainId}/${index}/${event.kind}`);
}
/** The distribution the moment is about: ours, or after a rollback the previous one; undefined when its id is not known. */
function artifactOf(run, event) {
    const id = event.kind === 'rolledback' ? run.previousDistributionId : run.distribution.id;
    return id === undefined ? undefined : purlOf(id);
}
/** What RFC 3986 lets a URI hold unencoded, without '%': a value of these needs no header encoding at all. */
const PLAIN_URI = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]+$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/**
 * The events' source: the run's page when, once what RFC 3986 lets be written plain is decoded (%7E is ~), it holds
 * no '%' at all; else /brcloud-deploy/runs/<run>: the run's key when it is plain, else a UUID of it. A '%' in a source
 * would read differently in ce-source to a receiver that percent-decodes it, as the HTTP binding asks (3.1.3.2), and to
 * one that does not (some SDKs); a source without one reads the same to both, and is the CDEvent's context.source.
 */
function sourceOf(run) {
    const page = run.runUrl?.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex) => {
        const c = String.fromCharCode(Number.parseInt(hex, 16));
        return UNRESERVED.test(c) ? c : escape;
    });
    if (page !== undefined && PLAIN_URI.test(page))
        return page;
    return `/brcloud-deploy/runs/${/^[A-Za-z0-9\-._~]+$/.test(run.runKey) ? run.runKey : (0,from_run.uuidOf)(`run/${run.runKey}`)}`;
}
/** A ce-* header's value as the HTTP binding wants it: space, '"', '%' and anything outside printable ASCII percent-encoded (UTF-8). */
function headerValue(value) {
    return value.replace(/[^\x21-\x7e]|["%]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}
/** The CloudEvent of one moment: its ce-* headers and the CDEvent as its body. */
function cdevent(run, event, index) {
    const type = CDEVENT_TYPES[event.kind];
    const id = eventId(run, event, index);
    const source = sourceOf(run);
    const timestamp = new Date(event.at).toISOString();
    const subjectId = `${run.stack}/${run.environment ?? ''}`;
    const where = run.apiUrl ? { source: run.apiUrl } : {};
    const environment = { id: run.environment ?? '', ...((run.consoleUrl ?? run.apiUrl) ? { source: run.consoleUrl ?? run.apiUrl } : {}) };
    const service = event.kind === 'deployed' || event.kind === 'upgraded' || event.kind === 'rolledback';
    // The schemas allow no other field in a service event's content: artifactId for three of them, none for published.
    // A service event requires artifactId (seen running, so its id is known); an ending names one only when it has an id.
    const artifact = artifactOf(run, event);
    const content = event.kind === 'published'
        ? { environment }
        : service
            ? { environment, artifactId: artifact ?? purlOf('unknown') }
            : { environment, ...(artifact !== undefined && { artifactId: artifact }), outcome: run.outcome, reason: event.evidence };
    const body = {
        context: { specversion: CDEVENTS_SPEC_VERSION, id, source, type, timestamp, chainId: run.chainId },
        subject: { id: subjectId, ...where, content },
        // What the spec's content has no field for: the commit, the run and who ran it, the distribution, the evidence.
        customData: {
            evidence: event.evidence,
            commit: run.commit,
            ref: run.ref,
            repository: run.repository,
            runUrl: run.runUrl,
            runKey: run.runKey,
            actor: run.actor,
            stack: run.stack,
            distribution: run.distribution,
            previousDistributionId: run.previousDistributionId,
            releaseState: run.releaseState,
            headline: run.headline,
            // What is in the release (capped at EVENT_COMMITS, with the count), and the release rules' facts.
            changes: run.changes,
            overrideReason: run.rules?.overrideReason,
            overrode: run.rules?.overrode,
            backupId: run.rules?.backupId,
            refusedBy: run.rules?.refusedBy
        },
        customDataContentType: 'application/json'
    };
    const headers = {
        'ce-specversion': '1.0',
        'ce-id': id,
        'ce-source': headerValue(source),
        'ce-type': type,
        'ce-time': timestamp,
        'ce-subject': headerValue(subjectId),
        'content-type': 'application/json'
    };
    return { headers, body };
}
/** The sink: every moment of the run, one POST each, in order; a bearer token when events-token is set. */
function cdeventsSink(options) {
    return {
        name: 'CDEvents',
        async send(run, signal) {
            if (run.events.length === 0)
                return false;
            const auth = options.token ? { authorization: `Bearer ${options.token}` } : {};
            for (const [index, event] of run.events.entries()) {
                const { headers, body } = cdevent(run, event, index);
                await (0,sinks_post/* postJson */.B2)({
                    service: 'CDEvents',
                    url: options.url,
                    path: '',
                    headers: { ...headers, ...auth },
                    body,
                    secrets: options.token ? [options.token] : [],
                    signal
                });
            }
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/datadog.ts


const NS_PER_MS = 1_000_000;
/**
 * The deployment events of one run, in order: ours when it was seen live (started at the run's start,
 * finished when the switch was seen), then the previous distribution's when our rollback was seen.
 * The version is the distribution's id (distributionKey): the platform's name for what runs, which a rollback names too.
 */
function datadogDeployments(run, service) {
    const live = releaseSeen(run);
    const back = rollbackSeen(run);
    const base = datadog_eventId(run);
    const tags = [`stack:${run.stack}`, ...ruleTags(run)];
    const events = [];
    if (live) {
        const name = run.distribution.name;
        const version = run.distribution.id === undefined ? undefined : distributionKey(run.distribution.id);
        events.push(deployment({
            service,
            ...(run.environment !== undefined && { env: run.environment }),
            ...(version !== undefined && { version }),
            started_at: run.startedAt * NS_PER_MS,
            finished_at: live.at * NS_PER_MS,
            ...git(run),
            id: base,
            custom_tags: name !== undefined ? [...tags, `distribution:${name}`] : tags
        }));
    }
    if (back && run.previousDistributionId !== undefined) {
        // The rollback's request is not an observation: it began after the last moment seen before it.
        const before = run.events.filter((e) => e.at <= back.at && e !== back).at(-1);
        const ours = distributionLabel(run);
        events.push(deployment({
            service,
            ...(run.environment !== undefined && { env: run.environment }),
            version: distributionKey(run.previousDistributionId),
            started_at: (before?.at ?? run.startedAt) * NS_PER_MS,
            finished_at: back.at * NS_PER_MS,
            id: `${base}:rollback`,
            custom_tags: ours !== undefined ? [...tags, `rolled_back:${ours}`] : tags
        }));
    }
    return events;
}
/**
 * The release rules' facts as tags (Datadog's deployment events have no text but tags): the override reason and the
 * backup found, each in the characters a tag keeps (others become '_') and within its 200.
 */
function ruleTags(run) {
    const tag = (key, value) => `${key}:${value.replace(/[^A-Za-z0-9_\-:./]/g, '_')}`.slice(0, 200);
    const r = run.rules;
    return [
        ...(r?.overrideReason !== undefined ? [tag('override_reason', r.overrideReason)] : []),
        ...(r?.backupId !== undefined ? [tag('backup', r.backupId)] : [])
    ];
}
function deployment(attributes) {
    return { data: { attributes } };
}
/**
 * The commit, when both it and the repository are known (the API requires both), and in full: a promotion's commit
 * read off a default name is abbreviated, which Datadog cannot match to the repository's history.
 */
function git(run) {
    const repository = repositoryUrl(run);
    const full = run.commit !== undefined && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(run.commit);
    return full && run.commit !== undefined && repository !== undefined ? { git: { commit_sha: run.commit, repository_url: repository } } : {};
}
/**
 * A deployment id as the API takes it (16 to 128 of a-z, A-Z, 0-9, '-', '_', '.', ':'): the run for people to read,
 * then the release attempt's chain (the CI's run and attempt, the run's start, the stack, the environment), so a
 * staging and a production job of one run attempt never share one. At most 119 characters: room for ':rollback'.
 */
function datadog_eventId(run) {
    return `brcloud-deploy:${run.runKey.slice(0, 64)}:${run.chainId}`.replace(/[^A-Za-z0-9\-_.:]/g, '-').slice(0, 119);
}
function datadogSink(config) {
    return {
        name: 'Datadog',
        async send(run, signal) {
            const deployments = datadogDeployments(run, config.service);
            if (deployments.length === 0)
                return false;
            for (const body of deployments)
                await (0,sinks_post/* postJson */.B2)({
                    service: 'Datadog',
                    url: config.apiUrl,
                    path: '/api/v2/dora/deployment',
                    headers: { 'DD-API-KEY': config.apiKey },
                    body,
                    secrets: [config.apiKey],
                    signal
                });
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/grafana.ts


/** The annotation of one run, or undefined when it tried no release (a refusal, a run without an environment). */
function grafanaAnnotation(run) {
    if (!triedRelease(run) || run.environment === undefined)
        return undefined;
    const end = rollbackSeen(run)?.at ?? releaseSeen(run)?.at ?? ending(run)?.at ?? run.endedAt;
    const lines = [`${run.headline} (${place(run)})`, ...rulesFacts(run).map((f) => `${f.title}: ${f.value}`), ...timeline(run), ...changesText(run)];
    if (run.runUrl !== undefined)
        lines.push(run.runUrl);
    return { time: run.startedAt, timeEnd: Math.max(end, run.startedAt), tags: ['brcloud', run.stack, run.environment, run.outcome], text: lines.join('\n') };
}
function grafanaSink(config) {
    return {
        name: 'Grafana',
        async send(run, signal) {
            const annotation = grafanaAnnotation(run);
            if (!annotation)
                return false;
            await (0,sinks_post/* postJson */.B2)({
                service: 'Grafana',
                url: config.url,
                path: '/api/annotations',
                headers: { authorization: `Bearer ${config.token}` },
                body: annotation,
                secrets: [config.token],
                signal
            });
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/honeycomb.ts


/** The marker of one run, or undefined when it tried no release. */
function honeycombMarker(run) {
    if (!triedRelease(run))
        return undefined;
    const live = releaseSeen(run);
    const back = rollbackSeen(run);
    const seconds = (ms) => Math.floor(ms / 1000);
    const range = back !== undefined
        ? { type: 'rollback', start_time: seconds(live?.at ?? back.at), end_time: seconds(back.at) }
        : live !== undefined
            ? { type: 'deploy', start_time: seconds(live.at) }
            : { type: 'deploy-attempt', start_time: seconds(run.startedAt), end_time: seconds(ending(run)?.at ?? run.endedAt) };
    return { message: truncate(`${run.headline} (${place(run)})${overrideText(run)}`, 500), ...range, ...(run.runUrl !== undefined && { url: run.runUrl }) };
}
function honeycombSink(config) {
    return {
        name: 'Honeycomb',
        async send(run, signal) {
            const marker = honeycombMarker(run);
            if (!marker)
                return false;
            await (0,sinks_post/* postJson */.B2)({
                service: 'Honeycomb',
                url: config.apiUrl,
                path: `/1/markers/${encodeURIComponent(config.dataset)}`,
                headers: { 'X-Honeycomb-Team': config.apiKey },
                body: marker,
                secrets: [config.apiKey],
                signal
            });
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/new-relic.ts


const CREATE_DEPLOYMENT = 'mutation BrcloudDeployment($deployment: ChangeTrackingDeploymentInput!) { changeTrackingCreateDeployment(deployment: $deployment) { deploymentId entityGuid } }';
/** The change-tracking requests of one run, in order: ours seen live, then the rollback seen. */
function newRelicDeployments(run, entityGuid) {
    const live = releaseSeen(run);
    const back = rollbackSeen(run);
    const ours = run.distribution.id === undefined ? undefined : distributionKey(run.distribution.id);
    const name = run.distribution.name;
    const label = distributionLabel(run);
    const common = {
        entityGuid,
        deploymentType: 'BASIC',
        groupId: run.chainId,
        ...(run.actor !== undefined && { user: run.actor }),
        ...(run.runUrl !== undefined && { deepLink: run.runUrl })
    };
    const requests = [];
    if (live && ours !== undefined)
        requests.push(request({
            ...common,
            version: ours,
            timestamp: live.at,
            description: truncate(`${run.headline} (${place(run)})${overrideText(run)}`, 1000),
            ...(run.commit !== undefined && { commit: run.commit }),
            ...changelogOf(run, name)
        }));
    if (back && run.previousDistributionId !== undefined)
        requests.push(request({
            ...common,
            version: distributionKey(run.previousDistributionId),
            timestamp: back.at,
            description: truncate(`Rolled back to ${run.previousDistributionId}${label !== undefined ? ` from ${label}` : ''} on ${place(run)}: ${back.evidence}${overrideText(run)}`, 1000)
        }));
    return requests;
}
/** The changelog: the distribution, then the release's commits (capped), within 1000 characters like the description. */
function changelogOf(run, name) {
    const lines = [...(name !== undefined ? [`distribution ${name}`] : []), ...changesText(run)];
    return lines.length === 0 ? {} : { changelog: truncate(lines.join('\n'), 1000) };
}
function request(deployment) {
    return { query: CREATE_DEPLOYMENT, variables: { deployment } };
}
function newRelicSink(config) {
    return {
        name: 'New Relic',
        async send(run, signal) {
            const deployments = newRelicDeployments(run, config.entityGuid);
            if (deployments.length === 0)
                return false;
            for (const body of deployments) {
                const res = await (0,sinks_post/* postJson */.B2)({
                    service: 'New Relic',
                    url: config.apiUrl,
                    path: '',
                    body,
                    headers: { 'API-Key': config.apiKey },
                    secrets: [config.apiKey],
                    signal
                });
                const error = graphqlError(res.text);
                if (error !== undefined)
                    throw new sinks_post/* SinkCallFailed */.nu(`New Relic answered ${res.status} with an error: ${(0,sinks_post/* scrub */._I)(truncate(error, 200), [config.apiKey])}`, res.status);
            }
            return true;
        }
    };
}
/** The first error of a GraphQL answer, or undefined when it has none. */
function graphqlError(text) {
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        return 'its answer was not JSON';
    }
    if (!Array.isArray(body.errors) || body.errors.length === 0)
        return undefined;
    const message = body.errors[0]?.message;
    return typeof message === 'string' ? message : 'errors without a message';
}

;// CONCATENATED MODULE: ./src/events/sinks/sentry.ts


/** Sentry keeps a deploy's name in 64 characters. */
const NAME_MAX = 64;
/**
 * The deploy of one run, or undefined when no release was seen live (or it has no name or environment):
 * started at the run's start, finished when the switch was seen.
 */
function sentryDeploy(run, project) {
    const live = releaseSeen(run);
    if (!live || run.environment === undefined || run.distribution.name === undefined)
        return undefined;
    return {
        environment: run.environment,
        name: deployName(run),
        ...(run.runUrl !== undefined && { url: run.runUrl }),
        dateStarted: iso(run.startedAt),
        dateFinished: iso(live.at),
        projects: [project]
    };
}
/**
 * The deploy's name, in Sentry's 64 characters: where it went, and when a rollback was seen. The variable parts give
 * way, each cut whole with an ellipsis: the stack first (often its API address), then the environment; the rollback's
 * words and time stay whole.
 */
function deployName(run) {
    const back = rollbackSeen(run);
    const rolledBack = back === undefined ? '' : `, rolled back ${iso(back.at).slice(0, 19)}Z`;
    return `${placeWithin(run, NAME_MAX - rolledBack.length)}${rolledBack}`;
}
/** stack/environment in at most `max` characters: the stack shortened first (to "…" at the least), then the environment. */
function placeWithin(run, max) {
    const full = place(run);
    if (full.length <= max || run.environment === undefined)
        return truncate(full, max);
    const environment = truncate(run.environment, Math.max(1, max - 2));
    return `${truncate(run.stack, max - environment.length - 1)}/${environment}`;
}
/** The release to create when Sentry does not know it: the distribution's name, for the project, at the commit. */
function sentryRelease(run, project) {
    if (run.distribution.name === undefined)
        return undefined;
    return { version: run.distribution.name, projects: [project], ...(run.commit !== undefined && { ref: run.commit }) };
}
function sentrySink(config) {
    const org = encodeURIComponent(config.org);
    return {
        name: 'Sentry',
        async send(run, signal) {
            const deploy = sentryDeploy(run, config.project);
            const release = sentryRelease(run, config.project);
            if (!deploy || !release)
                return false;
            const post = (path, body) => (0,sinks_post/* postJson */.B2)({
                service: 'Sentry',
                url: config.url,
                path,
                headers: { authorization: `Bearer ${config.authToken}` },
                body,
                secrets: [config.authToken],
                signal
            });
            const deploysPath = `/api/0/organizations/${org}/releases/${encodeURIComponent(release.version)}/deploys/`;
            try {
                await post(deploysPath, deploy);
            }
            catch (error) {
                if (!(error instanceof sinks_post/* SinkCallFailed */.nu && error.status === 404))
                    throw error;
                // No such release (a wrong organisation gets a 404 here too): a deploy belongs to a release, so it is created, then the deploy sent once more.
                await post(`/api/0/organizations/${org}/releases/`, release);
                await post(deploysPath, deploy);
            }
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/slack.ts


// Block Kit's limits: a section's text 3000 characters, a field's 2000, a button's URL 3000.
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
/** The message for one run: the headline, then where, what, which commit, the release state, what runs now, what was observed. */
function slackMessage(run) {
    const md = (text, max = SECTION_MAX) => ({ type: 'mrkdwn', text: truncate(text, max) });
    const field = (title, value) => md(`*${title}*\n${value}`, FIELD_MAX);
    const fields = [field('Environment', slack_escape(place(run)))];
    const dist = distributionLabel(run);
    if (dist !== undefined) {
        const id = run.distribution.id !== undefined && run.distribution.id !== dist ? ` (\`${slack_escape(run.distribution.id)}\`)` : '';
        fields.push(field('Distribution', `${slack_escape(dist)}${id}`));
    }
    if (run.commit !== undefined) {
        const url = commitUrl(run);
        fields.push(field('Commit', url === undefined ? `\`${shortSha(run.commit)}\`` : `<${url}|${shortSha(run.commit)}>`));
    }
    if (run.releaseState !== undefined)
        fields.push(field('Release state', slack_escape(run.releaseState)));
    if (run.environment !== undefined)
        fields.push(field(rollbackSeen(run) ? 'Runs now (after the rollback)' : 'Runs now', slack_escape(nowRunningText(run))));
    if (run.actor !== undefined)
        fields.push(field('Run by', slack_escape(run.actor)));
    for (const fact of rulesFacts(run))
        fields.push(field(fact.title, slack_escape(fact.value)));
    const blocks = [
        { type: 'section', text: md(`*${slack_escape(run.headline)}*`) },
        { type: 'section', fields }
    ];
    const changes = changesText(run);
    if (changes.length > 0)
        blocks.push({ type: 'section', text: md(`*Changes*\n${changes.map((l) => slack_escape(l)).join('\n')}`) });
    const seen = timeline(run);
    if (seen.length > 0)
        blocks.push({ type: 'section', text: md(`*What was observed*\n${seen.map((l) => `• ${slack_escape(l)}`).join('\n')}`) });
    if (run.runUrl !== undefined)
        blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'View the run' }, url: run.runUrl }] });
    return { text: `${run.headline} (${place(run)})`, blocks };
}
/** Slack's mrkdwn takes &, < and > as control characters: https://api.slack.com/reference/surfaces/formatting#escaping */
function slack_escape(text) {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function slackSink(config) {
    return {
        name: 'Slack',
        async send(run, signal) {
            await (0,sinks_post/* postJson */.B2)({
                service: 'Slack',
                url: config.webhookUrl,
                path: '',
                // The webhook's URL is its secret: postJson scrubs a call's address, and a webhook's path, from every failure.
                webhook: true,
                body: slackMessage(run),
                secrets: [],
                signal
            });
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/teams.ts


/** The card for one run: the headline, a FactSet (where, what, commit, state, what runs now, who), what was observed, links. */
function teamsMessage(run) {
    const facts = [{ title: 'Environment', value: place(run) }];
    const dist = distributionLabel(run);
    if (dist !== undefined) {
        const id = run.distribution.id !== undefined && run.distribution.id !== dist ? ` (${run.distribution.id})` : '';
        facts.push({ title: 'Distribution', value: `${dist}${id}` });
    }
    if (run.commit !== undefined)
        facts.push({ title: 'Commit', value: shortSha(run.commit) });
    if (run.releaseState !== undefined)
        facts.push({ title: 'Release state', value: run.releaseState });
    if (run.environment !== undefined)
        facts.push({ title: rollbackSeen(run) ? 'Runs now (after the rollback)' : 'Runs now', value: nowRunningText(run) });
    if (run.actor !== undefined)
        facts.push({ title: 'Run by', value: run.actor });
    facts.push(...rulesFacts(run));
    const body = [
        { type: 'TextBlock', text: run.headline, wrap: true, weight: 'Bolder', size: 'Medium' },
        { type: 'FactSet', facts }
    ];
    const changes = changesText(run);
    if (changes.length > 0) {
        body.push({ type: 'TextBlock', text: 'Changes', wrap: true, weight: 'Bolder', spacing: 'Medium' });
        body.push({ type: 'TextBlock', text: changes.join('\n\n'), wrap: true });
    }
    const seen = timeline(run);
    if (seen.length > 0) {
        body.push({ type: 'TextBlock', text: 'What was observed', wrap: true, weight: 'Bolder', spacing: 'Medium' });
        // A blank line between moments: a TextBlock's Markdown joins single line breaks.
        body.push({ type: 'TextBlock', text: seen.join('\n\n'), wrap: true });
    }
    const actions = [];
    if (run.runUrl !== undefined)
        actions.push({ type: 'Action.OpenUrl', title: 'View the run', url: run.runUrl });
    const commit = commitUrl(run);
    if (commit !== undefined && run.commit !== undefined)
        actions.push({ type: 'Action.OpenUrl', title: `View commit ${shortSha(run.commit)}`, url: commit });
    return {
        type: 'message',
        attachments: [
            {
                contentType: 'application/vnd.microsoft.card.adaptive',
                contentUrl: null,
                content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, actions }
            }
        ]
    };
}
function teamsSink(config) {
    return {
        name: 'Microsoft Teams',
        async send(run, signal) {
            await (0,sinks_post/* postJson */.B2)({
                service: 'Microsoft Teams',
                url: config.webhookUrl,
                path: '',
                // The webhook's URL is its secret: postJson scrubs a call's address, and a webhook's path, from every failure.
                webhook: true,
                body: teamsMessage(run),
                secrets: [],
                signal
            });
            return true;
        }
    };
}

;// CONCATENATED MODULE: ./src/events/sinks/native.ts







function nativeSinks(inputs) {
    const sinks = [];
    if (inputs.slack)
        sinks.push(slackSink(inputs.slack));
    if (inputs.teams)
        sinks.push(teamsSink(inputs.teams));
    if (inputs.datadog)
        sinks.push(datadogSink(inputs.datadog));
    if (inputs.sentry)
        sinks.push(sentrySink(inputs.sentry));
    if (inputs.grafana)
        sinks.push(grafanaSink(inputs.grafana));
    if (inputs.honeycomb)
        sinks.push(honeycombSink(inputs.honeycomb));
    if (inputs.newRelic)
        sinks.push(newRelicSink(inputs.newRelic));
    return sinks;
}

;// CONCATENATED MODULE: ./src/events/sinks.ts
// The sinks a run's inputs turn on: CDEvents (events-url), then the native sinks (Slack, Teams, Datadog, Sentry,
// Grafana, Honeycomb, New Relic) of events/sinks/native.ts, each on when its first input is set.


function sinksFor(inputs) {
    return [...(inputs.cdevents ? [cdeventsSink(inputs.cdevents)] : []), ...nativeSinks(inputs)];
}


/***/ }),

/***/ 894:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B2: () => (/* binding */ postJson),
/* harmony export */   _I: () => (/* binding */ scrub),
/* harmony export */   nu: () => (/* binding */ SinkCallFailed)
/* harmony export */ });
/* unused harmony exports answerFailed, errorText */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _http_transport_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5848);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7194);
// The one way a native sink calls its service: JSON over the project's HttpTransport, ended by the
// dispatcher's signal, and a failure that names the service and its status without the address or a
// token (a webhook's URL is its secret; a service may echo what it was sent).



const USER_AGENT = 'brcloud-deploy (events)';
/** A service's own error text is quoted when it is at most this long (a page of HTML is not). */
const SHORT_TEXT = 200;
/** A service answered with a status that is not a success, or not at all. Carries no address and no token. */
class SinkCallFailed extends Error {
    status;
    name = 'SinkCallFailed';
    constructor(message, 
    /** The answer's status; undefined when there was no answer. */
    status) {
        super(message);
        this.status = status;
    }
}
/** POSTs `body` as JSON; the answer when its status is 2xx, otherwise a SinkCallFailed. */
async function postJson(call) {
    const { base, path } = split(call);
    // A webhook's whole address is its secret, its path and query too.
    const secrets = [...call.secrets, call.url, ...(call.webhook === true && path.length > 1 ? [path] : [])];
    const transport = new _http_transport_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpTransport */ .G(base, { userAgent: USER_AGENT, signal: call.signal });
    let res;
    try {
        res = await transport.send({
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json', ...call.headers },
            body: JSON.stringify(call.body)
        });
    }
    catch (error) {
        // The time limit or the run's stop: the dispatcher reads its own signal's reason.
        if (call.signal.aborted)
            throw call.signal.reason;
        const code = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .systemErrorCode */ .vq)(error);
        const why = code ?? scrub(error instanceof Error ? error.message : String(error), secrets);
        throw new SinkCallFailed(`${call.service} could not be reached (${why})`);
    }
    finally {
        await transport.close();
    }
    if (res.status < 200 || res.status > 299)
        throw answerFailed(call.service, res, secrets);
    return res;
}
/** "Grafana answered 401: invalid API key": the service's own words when they are short, never an address or token. */
function answerFailed(service, res, secrets) {
    const text = errorText(res.text);
    const shown = text === undefined ? '' : scrub(text, secrets);
    return new SinkCallFailed(`${service} answered ${res.status}${shown ? `: ${shown}` : ''}`, res.status);
}
/** The error text of an answer: a JSON body's message/error/detail (first of errors[]), or a short plain text. */
function errorText(body) {
    let text;
    try {
        text = messageOf(JSON.parse(body));
    }
    catch {
        text = /^\s*</.test(body) ? undefined : body;
    }
    const line = text?.replace(/\s+/g, ' ').trim();
    return line && line.length <= SHORT_TEXT ? line : undefined;
}
function messageOf(value) {
    if (typeof value === 'string')
        return value;
    if (Array.isArray(value))
        return messageOf(value[0]);
    if (value === null || typeof value !== 'object')
        return undefined;
    const o = value;
    for (const key of ['message', 'error', 'detail', 'title', 'errors']) {
        const found = messageOf(o[key]);
        if (found)
            return found;
    }
    return undefined;
}
/** The text with every secret of this call (and every one the run registered) replaced by ***. */
function scrub(text, secrets) {
    let out = text;
    for (const s of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)) {
        out = out.split(s).join('***').split(encodeURIComponent(s)).join('***');
    }
    return (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)(out);
}
/** The transport's base (origin and path prefix, no trailing slash) and the path of this call. */
function split(call) {
    let url;
    try {
        url = new URL(call.url);
    }
    catch {
        throw new SinkCallFailed(`${call.service}: its address is not a URL`);
    }
    const prefix = url.pathname.replace(/\/+$/, '');
    const path = `${prefix}${call.path}` || '/';
    return { base: url.origin, path: `${path}${url.search}` };
}


/***/ }),

/***/ 5848:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  G: () => (/* binding */ HttpTransport)
});

// UNUSED EXPORTS: CallTimeoutError

// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
// EXTERNAL MODULE: ./src/http/dispatcher.ts
var dispatcher = __webpack_require__(3839);
;// CONCATENATED MODULE: ./src/http/upload-watch.ts
// The upload's time limit: "no bytes moving for request-timeout-seconds", and nothing else (a large
// upload on a slow link may take hours). Bytes move when the socket takes the next chunk of the body.
// After the last chunk, the network and the server may still hold a lot in their buffers (several MB
// on Linux), which a slow server reads long after our last write: the wait for the answer allows for
// draining that at the rate the upload ran, so the limit fires only when the server has stopped
// reading, not while it is still reading what we sent.

/** At most this much of the body can sit in socket buffers between us and the server's reads. */
const BUFFERED_BOUND = 16 * 1024 * 1024;
/** A server reading slower than this is taken as stopped, when the upload ran too briefly to measure its rate. */
const FLOOR_BYTES_PER_SECOND = 64 * 1024;
/** The rate is measured over the last this-many milliseconds of the upload (the first burst into empty buffers would flatter it). */
const RATE_WINDOW_MS = 2_000;
class UploadWatch {
    options;
    now;
    started;
    last;
    /** [time, bytes so far] of each chunk taken, kept for the rate window. */
    marks = [];
    bytes = 0;
    deadline;
    timer;
    fired = false;
    sent = false;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? (() => performance.now());
        this.started = this.last = this.now();
        this.deadline = this.started + options.idleMs;
        this.timer = setInterval(() => this.check(), Math.max(50, Math.min(1_000, options.idleMs / 4)));
        this.timer.unref();
    }
    /** The body as the socket takes it: each chunk taken is progress. */
    track(body) {
        const pass = async function* () {
            for await (const chunk of body) {
                this.progress(chunk.length);
                yield chunk;
            }
            this.bodySent();
        };
        return external_node_stream_.Readable.from(pass.call(this), { objectMode: false });
    }
    progress(bytes) {
        this.bytes += bytes;
        this.last = this.now();
        this.marks.push([this.last, this.bytes]);
        while (this.marks.length > 2 && (this.marks[1]?.[0] ?? this.last) < this.last - RATE_WINDOW_MS)
            this.marks.shift();
        this.deadline = this.last + this.options.idleMs;
    }
    /** The whole body was handed to the socket: from now on the limit allows for the buffers to drain. */
    bodySent() {
        this.sent = true;
        this.deadline = this.now() + this.options.idleMs + this.drainAllowanceMs();
    }
    /** How long what may still sit in buffers takes to drain at the rate the upload ran (or the floor rate). */
    drainAllowanceMs() {
        const buffered = Math.min(this.bytes, BUFFERED_BOUND);
        const first = this.marks[0];
        const ranLongEnough = this.last - this.started >= 2 * RATE_WINDOW_MS && first !== undefined && this.last - first[0] >= RATE_WINDOW_MS / 2;
        const rate = ranLongEnough ? ((this.bytes - first[1]) / (this.last - first[0])) * 1000 : 0;
        return Math.round((buffered / Math.max(FLOOR_BYTES_PER_SECOND, rate)) * 1000);
    }
    stop() {
        if (this.timer !== undefined)
            clearInterval(this.timer);
        this.timer = undefined;
    }
    check() {
        if (this.fired || this.now() < this.deadline)
            return;
        this.fired = true;
        this.stop();
        const seconds = Math.round(this.options.idleMs / 1000);
        this.options.onIdle(this.sent
            ? `no answer after the whole upload was sent, in ${seconds} s plus the time its buffers take to drain`
            : `the upload made no progress for ${seconds} s`);
    }
}

;// CONCATENATED MODULE: ./src/http/transport.ts
// One HTTP/1.1 transport for every call of the action (undici; no fetch: uploads must stream).




const DEFAULT_TIMEOUT_MS = 60_000;
/** A call that ran out of time: code ETIMEDOUT, so the retry policy treats it as transient. */
class CallTimeoutError extends Error {
    name = 'CallTimeoutError';
    code = 'ETIMEDOUT';
}
class HttpTransport {
    baseUrl;
    options;
    dispatcher;
    ownsDispatcher;
    constructor(baseUrl, options) {
        this.baseUrl = baseUrl;
        this.options = options;
        // HTTP/1.1 only: the platform documents side effects of HTTP/2. HTTPS_PROXY, HTTP_PROXY and
        // NO_PROXY (or their lower-case forms) are honoured, as runners behind a corporate proxy need.
        this.ownsDispatcher = !options.dispatcher;
        // Loopback addresses (the emulator, a local stand-in) never go through a proxy (proxy.ts).
        this.dispatcher = options.dispatcher ?? (0,dispatcher/* proxyAwareDispatcher */.U)(baseUrl);
    }
    async send(req) {
        const total = req.idleTimeoutMs === undefined ? (req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined;
        const idle = req.idleTimeoutMs ?? total ?? DEFAULT_TIMEOUT_MS;
        const timer = total === undefined ? undefined : AbortSignal.timeout(total);
        // A streamed body is watched for progress instead of a limit on the whole call.
        const stalled = new AbortController();
        const watch = req.idleTimeoutMs !== undefined && req.body instanceof external_node_stream_.Readable
            ? new UploadWatch({ idleMs: req.idleTimeoutMs, onIdle: (message) => stalled.abort(new CallTimeoutError(message)) })
            : undefined;
        const signals = [timer, watch && stalled.signal, this.options.signal].filter((s) => s !== undefined);
        const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
        try {
            if (this.options.signal?.aborted)
                throw this.options.signal.reason;
            req.onDispatch?.();
            const res = await (0,undici.request)(this.baseUrl + req.path, {
                method: req.method,
                dispatcher: this.dispatcher,
                headers: { 'user-agent': this.options.userAgent, accept: 'application/json', ...req.headers },
                ...(req.body !== undefined && { body: watch && req.body instanceof external_node_stream_.Readable ? watch.track(req.body) : req.body }),
                // The watch owns the wait for the answer of an upload; 0 turns undici's own limit off.
                headersTimeout: watch ? 0 : idle,
                bodyTimeout: idle,
                ...(signal !== undefined && { signal })
            });
            watch?.stop();
            const text = await res.body.text();
            return { status: res.statusCode, headers: res.headers, text };
        }
        catch (error) {
            if (this.options.signal?.aborted)
                throw this.options.signal.reason;
            if (timer?.aborted)
                throw new CallTimeoutError(`no answer within ${Math.round((total ?? 0) / 1000)} s`);
            if (stalled.signal.aborted)
                throw stalled.signal.reason;
            throw error;
        }
        finally {
            watch?.stop();
        }
    }
    async close() {
        if (!this.ownsDispatcher)
            return;
        // After the watchdog fired, calls may still hang: destroy instead of waiting for them.
        if (this.options.signal?.aborted)
            await this.dispatcher.destroy();
        else
            await this.dispatcher.close();
    }
}


/***/ })

};
