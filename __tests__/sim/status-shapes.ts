// The status report's shapes the simulation found (issue 41), each a fixed schedule over the calm world of
// simulation.test.ts: every invariant holds on it, and the report says what it must. The first two were defects of
// their own (fixed here); the others were found before branch `status` fixed them, and stay as its regression schedules.
import { expect } from '@jest/globals'
import type { StatusGitHub, StatusSchedule } from './status-schedule.js'
import { statusWorld, type StatusReading } from './status-record.js'
import { statusShown } from './mocks.js'
import type { Schedule } from './world.js'
import type { GitLabSchedule } from './gitlab.js'
import { gitlab as gitlabWorld } from './gitlab.js'
import { COMMITS } from './github.js'

const github = (over: Partial<StatusGitHub> = {}): StatusGitHub => ({
  token: 'ok',
  driftIssues: false,
  filler: 'none',
  old: 1,
  theirs: [4, 6],
  recordOthers: true,
  oursRecorded: true,
  openIssue: false,
  issuesFail: false,
  ...over
})

const report = (over: Partial<StatusSchedule> = {}): StatusSchedule => ({
  // At 200 s the run has ended: a read whose moment has not come when it ends begins then (after the run).
  reads: [{ trigger: { at: 200 }, faults: [], latencyMs: 0, stop: undefined }],
  environments: 'named',
  track: 'main',
  health: false,
  failOn: [],
  login: 'as-run',
  github: github(),
  face: 'file',
  ...over
})

/** The code on GitLab (./gitlab.ts): every distribution named with its commit, a good token. */
const onGitLab = (over: Partial<GitLabSchedule> = {}): GitLabSchedule => ({
  ours: 3,
  old: 1,
  theirs: [4, 5],
  recordOthers: true,
  names: true,
  allowOlder: false,
  allowUnchecked: false,
  token: 'ok',
  faults: [],
  fromJob: false,
  ...over
})

/** The row of production in the first read. */
function production(read: StatusReading | undefined): { state: string; reason: string | null; lastCommit: string | null | undefined } {
  const row = read?.report?.environments.find((r) => r.environment === 'production')
  return { state: row?.state ?? '(none)', reason: row?.reason ?? null, lastCommit: row?.lastDeployment?.commit }
}

// Fresh seed 637176174, the 2614th schedule: the run recorded its Deployment of production (a redeploy of a distribution
// of unknown commit) between the first and second page of the report's listing of the repository's Deployments.
const RECORDED_WHILE_LISTED = `{"reading":"at-request","status":true,"idCase":"as-stored","idWhileDeploying":"reported","clockOffsetSeconds":600,"deleteInUse":"refuse","deployWhileBusy":"accept","deploySeconds":0,"start":"ours","login":"password","idpRefresh":"all","idpRevocation":true,"source":"id","maxDistributions":3,"ourSiteFails":false,"rollback":true,"rollbackOnSearch":true,"health":true,"healthExpect":true,"search":"none","followDeploy":true,"maxAttempts":2,"deployTimeoutSeconds":30,"requestTimeoutSeconds":60,"healthTimeoutSeconds":12,"tightWatchdog":false,"tokenSeconds":120,"faults":[],"actors":[],"latency":[0,0,0],"stop":{"kind":"cancel","trigger":{"after":"list-environments","nth":2,"delay":0}},"github":{"ours":2,"old":0,"theirs":[2,2],"recordOthers":true,"oursRecorded":false,"allowOlder":false,"allowUnchecked":false,"token":"ok","filler":150,"faults":[]},"race":"none","events":{"token":false,"sinks":[{"key":"cdevents","fate":{"kind":"answer","status":401,"seconds":4,"from":1}},{"key":"teams","fate":{"kind":"answer","status":404,"seconds":4,"from":1}},{"key":"sentry","fate":{"kind":"slow","status":401,"seconds":70,"from":1}}]},"history":true,"report":{"reads":[{"trigger":{"after":"login","nth":0,"delay":0},"faults":[],"latencyMs":0},{"trigger":{"after":"deploy","nth":2,"delay":5},"faults":[{"on":"get-distribution","kind":"reset","status":500,"skip":1,"times":3},{"on":"login","kind":"hang","status":503,"skip":1,"times":3}],"latencyMs":0}],"environments":"all","track":"typo","health":true,"failOn":["deploying"],"login":"as-run","github":{"token":"ok","driftIssues":false,"filler":"newer","old":4,"theirs":[2,1],"recordOthers":true,"oursRecorded":false,"openIssue":false,"issuesFail":false},"face":"command"},"second":{"relation":"same-run","environment":"same","when":45,"source":"upload","rollback":false}}`

/** The repository's Deployments each page of the report's listing of them found held (GitHub's, the whole repository's). */
function repositoryPages(read: number): Array<[string | null, number | undefined]> {
  return statusWorld.calls
    .filter((c) => c.read === read && c.kind === 'list-deployments' && c.settled === 200 && !c.path.includes('environment='))
    .map((c) => [new URLSearchParams(c.path.split('?')[1]).get('page'), c.deployments])
}

export const STATUS_SHAPES: Array<[string, Partial<Schedule>, (reads: readonly StatusReading[]) => void]> = [
  [
    // Our distribution, promoted to production, was recorded (with its commit) by a Deployment of development; 350
    // Deployments of other environments came after it: the listing reads the newest 300. It read outside.
    'status: more Deployments than a listing reads: a distribution an older one records reads unknown, never outside',
    { source: 'id', report: report({ track: 'none', github: github({ filler: 'newer' }) }) },
    (reads) => {
      expect(production(reads[0])).toMatchObject({ state: 'unknown', reason: expect.stringMatching(/among the newest 300 .* older Deployments/) })
      expect(reads[0]?.exit).toBe(0)
    }
  ],
  [
    // The listing is newest first: a Deployment recorded after its first page lands on that page, which was read, so the
    // report never saw it; production read outside, as it was when listed (the invariant took the second page's answer
    // for what the report could see). The next read, after the run, finds it: production's promotion, not development's.
    "status: fresh seed 637176174: the run's Deployment recorded between two pages of the report's listing: outside, as listed",
    JSON.parse(RECORDED_WHILE_LISTED) as Schedule,
    (reads) => {
      expect(repositoryPages(0)).toEqual([
        ['1', 150],
        ['2', 151]
      ])
      expect(production(reads[0])).toMatchObject({
        state: 'outside',
        reason: expect.stringMatching(/^no GitHub Deployment of acme\/site on this stack recorded distribution 0a0a0a0a-\S+ \(uploaded by someone/)
      })
      expect(reads[1]?.report?.environments.find((r) => r.environment === 'development')?.reason).toMatch(
        /GitHub Deployment 1150 recorded it for production, of a commit no evidence names/
      )
    }
  ],
  [
    // A rate limit read "the token lacks a permission: it needs deployments: read and contents: read".
    "status: GitHub's rate limit on the Deployments fails the report closed, named a rate limit, not a permission",
    {
      report: report({
        reads: [
          { trigger: { at: 200 }, faults: [{ on: 'list-deployments', kind: 'rate-limit', status: 403, skip: 0, times: 10 }], latencyMs: 0, stop: undefined }
        ]
      })
    },
    (reads) => {
      expect(reads[0]?.exit).toBe(1)
      expect(reads[0]?.report?.githubErrors.join('\n')).toMatch(/rate limit exceeded .*the rate limit lifts at .*no permission is missing/)
      expect(reads[0]?.report?.githubErrors.join('\n')).not.toMatch(/lacks a permission/)
    }
  ],
  [
    // Without a status field and no id while switching, production read during our switch: it read empty (and exit 8).
    'status: no status field, no id while switching, read during the switch: unknown, never empty; fail-on empty does not fail',
    {
      status: false,
      idWhileDeploying: 'null',
      deploySeconds: 100,
      report: report({ reads: [{ trigger: { after: 'deploy', nth: 0, delay: 5 }, faults: [], latencyMs: 0, stop: undefined }], failOn: ['empty'] })
    },
    (reads) => {
      expect(reads[0]?.afterTheRun).toBe(false)
      expect(production(reads[0])).toMatchObject({ state: 'unknown', reason: expect.stringMatching(/it runs nothing, or it is being switched/) })
      expect(reads[0]?.exit).toBe(0)
    }
  ],
  [
    // A promotion of a distribution whose commit nothing records: it read outside, its last Deployment at the promoting run's commit.
    'status: our promotion of a distribution of unknown commit reads unknown, naming its Deployment; its last Deployment shows no commit',
    {
      source: 'id',
      github: {
        ours: 3,
        old: 1,
        theirs: [4, 5],
        recordOthers: true,
        oursRecorded: false,
        allowOlder: false,
        allowUnchecked: false,
        token: 'ok',
        filler: 0,
        faults: []
      },
      report: report()
    },
    (reads) => {
      expect(production(reads[0])).toMatchObject({ state: 'unknown', reason: expect.stringMatching(/as promoted here by this action/), lastCommit: null })
    }
  ],
  [
    // A tracked ref GitHub does not know read unknown everywhere, and the report passed (exit 0).
    'status: a tracked ref GitHub does not know (a typo) fails the report closed',
    { report: report({ track: 'typo' }) },
    (reads) => {
      expect(reads[0]?.exit).toBe(1)
      expect(statusWorld.reads[0]?.printed.join('\n')).toMatch(/track 'mian' \(fleet\.yml: track\) is no branch, tag or commit that GitHub knows/)
    }
  ],
  [
    // The stack's password written where its variable's name belongs was repeated in the refusal.
    'status: a credential where a variable name belongs is refused (exit 2) without repeating it',
    { report: report({ login: 'credential-in-variable' }) },
    (reads) => {
      expect(reads[0]?.exit).toBe(2)
      expect(reads[0]?.refusal).toMatch(/password-variable/)
      expect(reads[0]?.refusal).not.toMatch(/emulator-password/)
    }
  ],
  [
    'status: brcloud status with the password as a flag is refused (exit 2, its error line alone) without repeating it',
    { report: report({ login: 'credential-in-variable', face: 'command' }) },
    (reads) => {
      expect(reads[0]?.exit).toBe(2)
      expect(reads[0]?.printed).toEqual(['', expect.stringMatching(/^error: .*--password.*\n$/)])
      expect(reads[0]?.refusal).not.toMatch(/emulator-password/)
    }
  ],
  [
    // The command's own face: its --json read back, during another job's switch the status field shows.
    'status: brcloud status --json while another job switches production (a status field): deploying, the others read',
    {
      deploySeconds: 60,
      actors: [{ trigger: { at: 1 }, kind: 'deploy', which: 0, other: false, seconds: 60 }],
      report: report({
        face: 'command',
        reads: [{ trigger: { after: 'list-environments', nth: 0, delay: 0 }, faults: [], latencyMs: 0, stop: undefined }],
        failOn: ['deploying']
      })
    },
    (reads) => {
      expect(reads[0]?.afterTheRun).toBe(false)
      expect(production(reads[0]).state).toBe('deploying')
      expect(reads[0]?.exit).toBe(8)
      expect(reads[0]?.printed[1]).toMatch(/^error: --fail-on deploying: 127\.0\.0\.1:9\/production is deploying\.$/m)
    }
  ],
  [
    // GitLab's world (issue 44): the run deploys ours (c3) to production; the report, reading GitLab through the file's
    // gitlab: key, tells its commit from its name, compares it with main (c5) through GitLab's merge base, and shows the
    // run's GitLab deployment as the last one; never a commit from a GitLab deployment, which records no distribution.
    'status: on GitLab (the file), production behind main by its name, the last deployment the run recorded',
    { gitlab: onGitLab(), report: report() },
    (reads) => {
      const row = reads[0]?.report?.environments.find((r) => r.environment === 'production')
      expect(row).toMatchObject({ state: 'behind', behindBy: 2, commit: COMMITS[3]?.slice(0, 7), evidence: 'name', evidenceDeploymentId: null })
      expect(row?.lastDeployment).toMatchObject({ commit: COMMITS[3], state: 'success' })
      expect(reads[0]?.exit).toBe(0)
    }
  ],
  [
    // The same by the command (--gitlab-project, --gitlab-url, BRCLOUD_GITLAB_TOKEN), with drift issues: GitLab issues.
    'status: on GitLab (the command), drift issues kept as GitLab issues labelled brcloud-drift',
    { gitlab: onGitLab(), report: report({ face: 'command', github: github({ driftIssues: true }) }) },
    (reads) => {
      expect(production(reads[0]).state).toBe('behind')
      const issues = gitlabWorld.world?.core.model.issues ?? []
      expect(issues.map((i) => [i.title, i.labels, i.state])).toContainEqual([expect.stringMatching(/production/), ['brcloud-drift'], 'opened'])
      expect(reads[0]?.exit).toBe(0)
    }
  ],
  [
    // Found by the simulation once a token endpoint's 429 was tried again (branch simcli): the retry's line quoted the
    // endpoint's error, which echoed the password grant's body, password and all. Each retry's line is scrubbed now.
    "status: the token endpoint's 429 echoes the password grant: tried again, and no line repeats the password",
    {
      login: 'script-account',
      report: report({
        reads: [{ trigger: { at: 200 }, faults: [{ on: 'idp-token', kind: 'echo', status: 429, skip: 0, times: 1 }], latencyMs: 0, stop: undefined }]
      })
    },
    (reads) => {
      expect(reads[0]?.exit).toBe(0)
      expect(statusShown.lines.join('\n')).toMatch(/attempt 1 failed \(.*HTTP 429 .*password=\*\*\*.*\); retrying/)
    }
  ]
]
