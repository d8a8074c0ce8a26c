// The seven native sinks against one stand-in server of their services (sink-stand-ins.ts): what each
// service receives, field by field, with its auth and its path; what a refusal says (the service, the
// status, its words, never the address or a token); and that the dispatcher's signal ends a hanging call.
import type { ObservedRun, Sink } from '../src/events/observed.js'
import { datadogDeployments, eventId } from '../src/events/sinks/datadog.js'
import { grafanaAnnotation } from '../src/events/sinks/grafana.js'
import { honeycombMarker } from '../src/events/sinks/honeycomb.js'
import { nativeSinks } from '../src/events/sinks/native.js'
import { CREATE_DEPLOYMENT, newRelicDeployments } from '../src/events/sinks/new-relic.js'
import { commitUrl, place, timeline, triedRelease, truncate } from '../src/events/sinks/facts.js'
import { errorText } from '../src/events/sinks/post.js'
import { registerSecret } from '../src/secrets.js'
import { sentryDeploy, sentryRelease } from '../src/events/sinks/sentry.js'
import { slackMessage } from '../src/events/sinks/slack.js'
import { teamsMessage } from '../src/events/sinks/teams.js'
import {
  cancelled,
  DATASET,
  ENTITY,
  firstDeploy,
  ORG,
  PROJECT,
  refused,
  rolledBack,
  SECRETS,
  type Service,
  SinkStandIns,
  T0,
  verifiedUpgrade
} from './sink-stand-ins.js'

const standIns = new SinkStandIns()
beforeAll(() => standIns.start())
afterAll(() => standIns.stop())
beforeEach(() => standIns.reset())

const S = 1000
const NS = 1_000_000
const COMMIT_URL = `https://github.com/acme/site/commit/${verifiedUpgrade.commit}`
const RUN_URL = 'https://github.com/acme/site/actions/runs/9001/attempts/1'

function sink(name: string, inputs = standIns.inputs()): Sink {
  const found = nativeSinks(inputs).find((s) => s.name === name)
  if (!found) throw new Error(`no sink ${name}`)
  return found
}

const send = (name: string, run: ObservedRun, inputs = standIns.inputs()): Promise<unknown> => sink(name, inputs).send(run, new AbortController().signal)

/** The failure of a send, as the dispatcher will see it. */
async function failure(name: string, run: ObservedRun, inputs = standIns.inputs()): Promise<Error> {
  const error = await send(name, run, inputs).then(
    () => undefined,
    (e: unknown) => e
  )
  if (!(error instanceof Error)) throw new Error(`${name} did not fail`)
  return error
}

/** Neither the address of a service nor any credential appears in `message`. */
function expectNoSecret(message: string): void {
  for (const secret of [standIns.base, '127.0.0.1', ...Object.values(SECRETS)]) expect(message).not.toContain(secret)
}

describe('nativeSinks', () => {
  test('a sink per configured service, in a fixed order; none when none is configured', () => {
    expect(nativeSinks(standIns.inputs()).map((s) => s.name)).toEqual(['Slack', 'Microsoft Teams', 'Datadog', 'Sentry', 'Grafana', 'Honeycomb', 'New Relic'])
    expect(nativeSinks({ timeoutMs: 1000 })).toEqual([])
    const { grafana, timeoutMs } = standIns.inputs()
    expect(nativeSinks({ ...(grafana && { grafana }), timeoutMs }).map((s) => s.name)).toEqual(['Grafana'])
  })
})

describe('what the sinks read off a run', () => {
  test("the commit's page is on the run's server (GitHub Enterprise), else on github.com (a CLI run elsewhere)", () => {
    const ghe = { ...verifiedUpgrade, runUrl: 'https://git.example.com/acme/site/actions/runs/7' }
    expect(commitUrl(ghe)).toBe(`https://git.example.com/acme/site/commit/${verifiedUpgrade.commit}`)
    const gitlab = { ...verifiedUpgrade, runUrl: 'https://gitlab.example.com/web/site/-/jobs/7' }
    expect(commitUrl(gitlab)).toBe(COMMIT_URL)
    expect(commitUrl({ ...verifiedUpgrade, commit: undefined })).toBeUndefined()
  })

  test('a release tried: seen, or begun and not settled; never a refusal, a wait, or a run without an environment', () => {
    const unconfirmed: ObservedRun = {
      ...cancelled,
      outcome: 'failure',
      releaseState: 'unconfirmed',
      events: [{ kind: 'unconfirmed', at: T0 + 70 * S, evidence: 'the deploy request got no answer and no look settled it' }]
    }
    expect([verifiedUpgrade, rolledBack, firstDeploy, cancelled, unconfirmed].map(triedRelease)).toEqual([true, true, true, true, true])
    expect(triedRelease(refused)).toBe(false)
    expect(triedRelease({ ...cancelled, releaseState: 'waiting' })).toBe(false)
    expect(triedRelease({ ...cancelled, releaseState: undefined })).toBe(false)
    expect(triedRelease({ ...verifiedUpgrade, environment: undefined })).toBe(false)
    expect(honeycombMarker(unconfirmed)).toMatchObject({ type: 'deploy-attempt', start_time: T0 / S, end_time: T0 / S + 70 })
    expect(grafanaAnnotation(unconfirmed)).toMatchObject({ time: T0, timeEnd: T0 + 70 * S })
    expect(datadogDeployments(unconfirmed, 'acme-site')).toEqual([])
  })
})

describe('Slack', () => {
  test('the message of a verified upgrade: fallback text, headline, facts, what was observed, the run', () => {
    expect(slackMessage(verifiedUpgrade)).toEqual({
      text: "✅ Verified: 'production' runs `d-0002` (acme/production)",
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: "*✅ Verified: 'production' runs `d-0002`*" } },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Environment*\nacme/production' },
            { type: 'mrkdwn', text: '*Distribution*\nacme-site-1.4.0.tar.gz (`d-0002`)' },
            { type: 'mrkdwn', text: `*Commit*\n<${COMMIT_URL}|3f2a9c1>` },
            { type: 'mrkdwn', text: '*Release state*\nverified' },
            { type: 'mrkdwn', text: '*Runs now*\nd-0002' },
            { type: 'mrkdwn', text: '*Run by*\noctocat' }
          ]
        },
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text:
              '*What was observed*\n' +
              '• 2025-05-06 10:01:35 UTC · Switched to our release: the environment reported d-0002 where it ran d-0001\n' +
              '• 2025-05-06 10:02:00 UTC · Published (the health check passed): the site answered 200 with the expected text'
          }
        },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'View the run' }, url: RUN_URL }] }
      ]
    })
  })

  test('a rollback says what runs now; a refusal what was seen; an unknown repository leaves the commit unlinked', () => {
    const back = slackMessage(rolledBack)
    const fields = (back.blocks[1] as { fields: { text: string }[] }).fields.map((f) => f.text)
    expect(fields).toContain('*Runs now (after the rollback)*\nd-0001 (the previous distribution, rolled back to)')
    expect(fields).toContain('*Release state*\nrollback-applied')
    expect((back.blocks[2] as { text: { text: string } }).text.text).toContain('2025-05-06 10:03:20 UTC · Rolled back: the environment reported d-0001 again')

    const no = slackMessage({ ...refused, repository: undefined })
    expect((no.blocks[1] as { fields: { text: string }[] }).fields).toContainEqual({ type: 'mrkdwn', text: '*Commit*\n`3f2a9c1`' })
    expect((no.blocks[2] as { text: { text: string } }).text.text).toBe(
      '*What was observed*\n• 2025-05-06 10:00:05 UTC · Refused: commit 3f2a9c1 is older than 77aa001, which production runs'
    )
    // Slack's control characters in what the run saw are escaped, not read as links.
    const odd = slackMessage({ ...cancelled, actor: '<!channel> & co' })
    expect(JSON.stringify(odd)).toContain('&lt;!channel&gt; &amp; co')
    expect(JSON.stringify(odd)).not.toContain('<!channel>')
  })

  test('posts to the webhook: the message as JSON, answered 200 ok', async () => {
    await send('Slack', verifiedUpgrade)
    const [req] = standIns.of('slack')
    expect(req?.method).toBe('POST')
    expect(req?.url).toBe(`/slack${SECRETS.slackPath}`)
    expect(req?.headers['content-type']).toBe('application/json')
    expect(req?.json).toEqual(slackMessage(verifiedUpgrade))
  })

  test('a refused webhook: the service, the status and its words, never the URL', async () => {
    const error = await failure(
      'Slack',
      verifiedUpgrade,
      standIns.inputs({ slack: { webhookUrl: `${standIns.base}/slack/services/T0001/B0002/revoked0123456789` } })
    )
    expect(error.message).toBe('Slack answered 404: no_service')
    expect(error.message).not.toContain('revoked0123456789')
    expectNoSecret(error.message)
  })

  test('an unreachable webhook: named by the failure, not by its address', async () => {
    const error = await failure('Slack', verifiedUpgrade, standIns.inputs({ slack: { webhookUrl: `http://127.0.0.1:1${SECRETS.slackPath}` } }))
    expect(error.message).toBe('Slack could not be reached (ECONNREFUSED)')
    expectNoSecret(error.message)
  })
})

describe('Microsoft Teams', () => {
  test('the Adaptive Card of a rollback: headline, FactSet, what was observed, links to the run and the commit', () => {
    expect(teamsMessage(rolledBack)).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: rolledBack.headline, wrap: true, weight: 'Bolder', size: 'Medium' },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Environment', value: 'acme/production' },
                  { title: 'Distribution', value: 'acme-site-1.4.0.tar.gz (d-0002)' },
                  { title: 'Commit', value: '3f2a9c1' },
                  { title: 'Release state', value: 'rollback-applied' },
                  { title: 'Runs now (after the rollback)', value: 'd-0001 (the previous distribution, rolled back to)' },
                  { title: 'Run by', value: 'octocat' }
                ]
              },
              { type: 'TextBlock', text: 'What was observed', wrap: true, weight: 'Bolder', spacing: 'Medium' },
              {
                type: 'TextBlock',
                text:
                  '2025-05-06 10:01:30 UTC · Switched to our release: the environment reported d-0002 where it ran d-0001\n\n' +
                  '2025-05-06 10:03:20 UTC · Rolled back: the environment reported d-0001 again\n\n' +
                  '2025-05-06 10:03:30 UTC · Failed: The site did not answer 200 within 60 s (last: 503)',
                wrap: true
              }
            ],
            actions: [
              { type: 'Action.OpenUrl', title: 'View the run', url: RUN_URL },
              { type: 'Action.OpenUrl', title: 'View commit 3f2a9c1', url: COMMIT_URL }
            ]
          }
        }
      ]
    })
  })

  test('a cancelled run says what runs now was not seen', () => {
    const facts = (teamsMessage(cancelled).attachments[0]?.content.body[1] as { facts: unknown[] }).facts
    expect(facts).toContainEqual({ title: 'Runs now', value: 'not seen when the run ended' })
    expect(facts).toContainEqual({ title: 'Release state', value: 'in-progress' })
  })

  test('posts to the Workflows URL, query and all, answered 202', async () => {
    await send('Microsoft Teams', cancelled)
    const [req] = standIns.of('teams')
    expect(req?.url).toBe(`/teams/workflows/4f1c/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${SECRETS.teamsSig}`)
    expect(req?.headers['content-type']).toBe('application/json')
    expect(req?.json).toEqual(teamsMessage(cancelled))
  })

  test('a wrong signature: the service and its words, never the URL or the sig', async () => {
    const url = `${standIns.base}/teams/workflows/4f1c/triggers/manual/paths/invoke?api-version=2016-06-01&sig=wrongSig42`
    const error = await failure('Microsoft Teams', cancelled, standIns.inputs({ teams: { webhookUrl: url } }))
    expect(error.message).toBe('Microsoft Teams answered 401: The signature of this trigger is not valid.')
    expect(error.message).not.toContain('wrongSig42')
    expectNoSecret(error.message)
  })
})

describe('Datadog DORA', () => {
  test('a verified upgrade: one deployment, from the run start to the switch seen, in nanoseconds', () => {
    expect(datadogDeployments(verifiedUpgrade, 'acme-site')).toEqual([
      {
        data: {
          attributes: {
            service: 'acme-site',
            env: 'production',
            version: 'd-0002',
            started_at: T0 * NS,
            finished_at: (T0 + 95 * S) * NS,
            git: { commit_sha: verifiedUpgrade.commit, repository_url: 'https://github.com/acme/site' },
            id: 'brcloud-deploy:9001-1:9001:1:acme-production',
            custom_tags: ['stack:acme', 'distribution:acme-site-1.4.0.tar.gz']
          }
        }
      }
    ])
  })

  test('a rollback: ours, then the previous distribution redeployed (which Datadog reads as a rollback)', () => {
    const [ours, back] = datadogDeployments(rolledBack, 'acme-site')
    expect(ours?.data.attributes.finished_at).toBe((T0 + 90 * S) * NS)
    expect(back).toEqual({
      data: {
        attributes: {
          service: 'acme-site',
          env: 'production',
          version: 'd-0001',
          started_at: (T0 + 90 * S) * NS,
          finished_at: (T0 + 200 * S) * NS,
          id: 'brcloud-deploy:9001-1:9001:1:acme-production:rollback',
          custom_tags: ['stack:acme', 'rolled_back:acme-site-1.4.0.tar.gz']
        }
      }
    })
  })

  test('nothing for a run that put nothing live; the id is one the API takes', () => {
    expect(datadogDeployments(refused, 'acme-site')).toEqual([])
    expect(datadogDeployments(cancelled, 'acme-site')).toEqual([])
    expect(datadogDeployments(firstDeploy, 'acme-site').map((d) => [d.data.attributes.env, d.data.attributes.finished_at])).toEqual([
      ['staging', (T0 + 80 * S) * NS]
    ])
    const chainId = '5b0e1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d'
    expect(eventId({ runKey: '9001/1 attempt#2', chainId })).toBe(`brcloud-deploy:9001-1-attempt-2:${chainId}`)
    expect(eventId({ runKey: 'x'.repeat(300), chainId })).toBe(`brcloud-deploy:${'x'.repeat(64)}:${chainId}`)
    expect(eventId({ runKey: 'x'.repeat(300), chainId: 'y'.repeat(300) })).toHaveLength(119)
    expect(eventId({ runKey: '', chainId: '' }).length).toBeGreaterThanOrEqual(16)
  })

  test("git only with the commit in full: a promotion's commit read off a default name is abbreviated, which Datadog cannot match", () => {
    const attributes = (commit: string | undefined) => datadogDeployments({ ...verifiedUpgrade, commit }, 'acme-site')[0]?.data.attributes
    expect(attributes('3f2a9c1')).not.toHaveProperty('git')
    expect(attributes(undefined)).not.toHaveProperty('git')
    expect(attributes('ab'.repeat(32))?.git?.commit_sha).toBe('ab'.repeat(32))
    expect(attributes(`${verifiedUpgrade.commit}0`)).not.toHaveProperty('git')
  })

  test('posts each event with DD-API-KEY; refused and cancelled runs send nothing', async () => {
    await send('Datadog', rolledBack)
    await send('Datadog', refused)
    await send('Datadog', cancelled)
    const reqs = standIns.of('datadog')
    expect(reqs.map((r) => r.url)).toEqual(['/datadog/api/v2/dora/deployment', '/datadog/api/v2/dora/deployment'])
    expect(reqs.map((r) => r.headers['dd-api-key'])).toEqual([SECRETS.datadogKey, SECRETS.datadogKey])
    expect(reqs.map((r) => r.json)).toEqual(datadogDeployments(rolledBack, 'acme-site'))
  })

  test('a wrong key: 403 Forbidden, without the key', async () => {
    const error = await failure('Datadog', verifiedUpgrade, standIns.inputs({ datadog: { apiKey: 'dd-wrong-key-999' } }))
    expect(error.message).toBe('Datadog answered 403: Forbidden')
    expect(error.message).not.toContain('dd-wrong-key-999')
  })
})

describe('Sentry', () => {
  test('the deploy of our release: to the environment, from the run start to the switch seen; a rollback in its name', () => {
    expect(sentryDeploy(verifiedUpgrade, PROJECT)).toEqual({
      environment: 'production',
      name: 'acme/production',
      url: RUN_URL,
      dateStarted: '2025-05-06T10:00:00.000Z',
      dateFinished: '2025-05-06T10:01:35.000Z',
      projects: [PROJECT]
    })
    expect(sentryDeploy(rolledBack, PROJECT)?.name).toBe('acme/production, rolled back 2025-05-06T10:03:20Z')
    expect(sentryDeploy(refused, PROJECT)).toBeUndefined()
    expect(sentryDeploy(cancelled, PROJECT)).toBeUndefined()
    expect(sentryRelease(verifiedUpgrade, PROJECT)).toEqual({ version: 'acme-site-1.4.0.tar.gz', projects: [PROJECT], ref: verifiedUpgrade.commit })
  })

  test('a release Sentry knows: one deploy, at the encoded organisation and version, with the bearer token', async () => {
    standIns.sentryReleases.add('acme-site-1.4.0.tar.gz')
    await send('Sentry', verifiedUpgrade)
    const reqs = standIns.of('sentry')
    expect(reqs.map((r) => r.url)).toEqual(['/sentry/api/0/organizations/acme%20org/releases/acme-site-1.4.0.tar.gz/deploys/'])
    expect(reqs[0]?.headers.authorization).toBe(`Bearer ${SECRETS.sentryToken}`)
    expect(reqs[0]?.json).toEqual(sentryDeploy(verifiedUpgrade, PROJECT))
  })

  test('a release Sentry does not know (404): created for the project, then the deploy again', async () => {
    const run = { ...firstDeploy, distribution: { ...firstDeploy.distribution, name: 'acme site+1.4.0.tar.gz' } }
    await send('Sentry', run)
    const reqs = standIns.of('sentry')
    const deploys = `/sentry/api/0/organizations/${encodeURIComponent(ORG)}/releases/acme%20site%2B1.4.0.tar.gz/deploys/`
    expect(reqs.map((r) => r.url)).toEqual([deploys, '/sentry/api/0/organizations/acme%20org/releases/', deploys])
    expect(reqs[1]?.json).toEqual({ version: 'acme site+1.4.0.tar.gz', projects: [PROJECT], ref: run.commit })
    expect(reqs[2]?.json).toEqual(sentryDeploy(run, PROJECT))
    expect(standIns.sentryReleases.has('acme site+1.4.0.tar.gz')).toBe(true)
  })

  test('nothing for a refusal; a wrong token: 401 and its detail, without the token', async () => {
    await send('Sentry', refused)
    expect(standIns.of('sentry')).toEqual([])
    const error = await failure('Sentry', verifiedUpgrade, standIns.inputs({ sentry: { authToken: 'sntrys_wrong_777' } }))
    expect(error.message).toBe('Sentry answered 401: Invalid token')
    expect(error.message).not.toContain('sntrys_wrong_777')
  })
})

describe('Grafana', () => {
  test('an annotation from the run start to the moment last seen changing: the switch, the rollback, the ending', () => {
    expect(grafanaAnnotation(verifiedUpgrade)).toEqual({
      time: T0,
      timeEnd: T0 + 95 * S,
      tags: ['brcloud', 'acme', 'production', 'success'],
      text: [
        "✅ Verified: 'production' runs `d-0002` (acme/production)",
        '2025-05-06 10:01:35 UTC · Switched to our release: the environment reported d-0002 where it ran d-0001',
        '2025-05-06 10:02:00 UTC · Published (the health check passed): the site answered 200 with the expected text',
        RUN_URL
      ].join('\n')
    })
    expect(grafanaAnnotation(rolledBack)).toMatchObject({ time: T0, timeEnd: T0 + 200 * S, tags: ['brcloud', 'acme', 'production', 'failure'] })
    expect(grafanaAnnotation(cancelled)).toMatchObject({ time: T0, timeEnd: T0 + 60 * S, tags: ['brcloud', 'acme', 'production', 'cancelled'] })
    expect(grafanaAnnotation(firstDeploy)).toMatchObject({ timeEnd: T0 + 80 * S, tags: ['brcloud', 'acme', 'staging', 'success'] })
    expect(grafanaAnnotation(refused)).toBeUndefined()
    expect(grafanaAnnotation({ ...cancelled, releaseState: 'waiting' })).toBeUndefined()
  })

  test('posts to /api/annotations under the base path with the bearer token; a refusal sends nothing', async () => {
    await send('Grafana', rolledBack)
    await send('Grafana', refused)
    const reqs = standIns.of('grafana')
    expect(reqs.map((r) => r.url)).toEqual(['/grafana/api/annotations'])
    expect(reqs[0]?.headers.authorization).toBe(`Bearer ${SECRETS.grafanaToken}`)
    expect(reqs[0]?.json).toEqual(grafanaAnnotation(rolledBack))
  })

  test('a wrong token: 401 and its message, without the token', async () => {
    const error = await failure('Grafana', rolledBack, standIns.inputs({ grafana: { token: 'glsa_wrong_55' } }))
    expect(error.message).toBe('Grafana answered 401: invalid API key')
    expect(error.message).not.toContain('glsa_wrong_55')
  })
})

describe('Honeycomb', () => {
  test('a marker at the switch seen; a range to the rollback seen; an attempt without a switch over the whole run', () => {
    expect(honeycombMarker(verifiedUpgrade)).toEqual({
      message: "✅ Verified: 'production' runs `d-0002` (acme/production)",
      type: 'deploy',
      start_time: T0 / S + 95,
      url: RUN_URL
    })
    expect(honeycombMarker(rolledBack)).toEqual({
      message: `${rolledBack.headline} (acme/production)`,
      type: 'rollback',
      start_time: T0 / S + 90,
      end_time: T0 / S + 200,
      url: RUN_URL
    })
    expect(honeycombMarker(cancelled)).toMatchObject({ type: 'deploy-attempt', start_time: T0 / S, end_time: T0 / S + 60 })
    expect(honeycombMarker(firstDeploy)).toMatchObject({ type: 'deploy', start_time: T0 / S + 80 })
    expect(honeycombMarker(refused)).toBeUndefined()
  })

  test('posts to the encoded dataset with X-Honeycomb-Team, answered 201', async () => {
    await send('Honeycomb', verifiedUpgrade)
    const [req] = standIns.of('honeycomb')
    expect(req?.url).toBe(`/honeycomb/1/markers/${encodeURIComponent(DATASET)}`)
    expect(req?.url).toBe('/honeycomb/1/markers/brxm%20site')
    expect(req?.headers['x-honeycomb-team']).toBe(SECRETS.honeycombKey)
    expect(req?.json).toEqual(honeycombMarker(verifiedUpgrade))
  })

  test('a wrong key: 401 and its words; an unknown dataset: 404', async () => {
    const error = await failure('Honeycomb', verifiedUpgrade, standIns.inputs({ honeycomb: { apiKey: 'hc_wrong_31' } }))
    expect(error.message).toBe('Honeycomb answered 401: unknown API key - check your credentials')
    expect(error.message).not.toContain('hc_wrong_31')
    const missing = await failure('Honeycomb', verifiedUpgrade, standIns.inputs({ honeycomb: { dataset: 'nope' } }))
    expect(missing.message).toBe('Honeycomb answered 404: dataset not found')
  })
})

describe('New Relic', () => {
  test('a deployment at the switch seen; for a rollback a second one for the previous distribution, in the same group', () => {
    expect(newRelicDeployments(verifiedUpgrade, ENTITY)).toEqual([
      {
        query: CREATE_DEPLOYMENT,
        variables: {
          deployment: {
            entityGuid: ENTITY,
            deploymentType: 'BASIC',
            groupId: '9001:1:acme/production',
            user: 'octocat',
            deepLink: RUN_URL,
            version: 'd-0002',
            timestamp: T0 + 95 * S,
            description: "✅ Verified: 'production' runs `d-0002` (acme/production)",
            commit: verifiedUpgrade.commit,
            changelog: 'distribution acme-site-1.4.0.tar.gz'
          }
        }
      }
    ])
    const [ours, back] = newRelicDeployments(rolledBack, ENTITY)
    expect(ours?.variables.deployment.timestamp).toBe(T0 + 90 * S)
    expect(back?.variables.deployment).toEqual({
      entityGuid: ENTITY,
      deploymentType: 'BASIC',
      groupId: '9001:1:acme/production',
      user: 'octocat',
      deepLink: RUN_URL,
      version: 'd-0001',
      timestamp: T0 + 200 * S,
      description: 'Rolled back to d-0001 from acme-site-1.4.0.tar.gz on acme/production: the environment reported d-0001 again'
    })
    expect(CREATE_DEPLOYMENT).toMatch(
      /^mutation \w+\(\$deployment: ChangeTrackingDeploymentInput!\) \{ changeTrackingCreateDeployment\(deployment: \$deployment\)/
    )
    expect(newRelicDeployments(refused, ENTITY)).toEqual([])
    expect(newRelicDeployments(cancelled, ENTITY)).toEqual([])
  })

  test('posts the GraphQL request to the endpoint with API-Key', async () => {
    await send('New Relic', rolledBack)
    const reqs = standIns.of('newrelic')
    expect(reqs.map((r) => r.url)).toEqual(['/newrelic/graphql', '/newrelic/graphql'])
    expect(reqs.map((r) => r.headers['api-key'])).toEqual([SECRETS.newRelicKey, SECRETS.newRelicKey])
    expect(reqs.map((r) => r.json)).toEqual(newRelicDeployments(rolledBack, ENTITY))
  })

  test('a 200 with errors is a failure; a wrong key is a 401', async () => {
    const error = await failure('New Relic', verifiedUpgrade, standIns.inputs({ newRelic: { entityGuid: 'unknown-guid' } }))
    expect(error.message).toBe('New Relic answered 200 with an error: Entity not found or not accessible')
    const key = await failure('New Relic', verifiedUpgrade, standIns.inputs({ newRelic: { apiKey: 'NRAK-WRONG-1' } }))
    expect(key.message).toBe('New Relic answered 401: Bad API Key or no API Key provided')
    expect(key.message).not.toContain('NRAK-WRONG-1')
  })
})

describe('every sink', () => {
  const services: [string, Service][] = [
    ['Slack', 'slack'],
    ['Microsoft Teams', 'teams'],
    ['Datadog', 'datadog'],
    ['Sentry', 'sentry'],
    ['Grafana', 'grafana'],
    ['Honeycomb', 'honeycomb'],
    ['New Relic', 'newrelic']
  ]

  test.each(services)('%s: the signal ends a call that hangs, with its reason', async (name, service) => {
    standIns.sentryReleases.add('acme-site-1.4.0.tar.gz')
    standIns.hanging.add(service)
    const stop = new AbortController()
    const sending = sink(name).send(verifiedUpgrade, stop.signal)
    await standIns.received(service)
    stop.abort(new Error('the time limit of the events passed'))
    await expect(sending).rejects.toThrow('the time limit of the events passed')
  })

  test.each(services)('%s: a 500 with a page of HTML names the status only', async (name, service) => {
    standIns.sentryReleases.add('acme-site-1.4.0.tar.gz')
    standIns.next.set(service, { status: 500, body: `<html><body>${'x'.repeat(500)}</body></html>`, type: 'text/html' })
    const error = await failure(name, verifiedUpgrade)
    expect(error.message).toBe(`${name} answered 500`)
  })

  test('a service that echoes the secret back: scrubbed', async () => {
    standIns.next.set('grafana', { status: 400, body: JSON.stringify({ message: `bad token ${SECRETS.grafanaToken}` }) })
    const error = await failure('Grafana', verifiedUpgrade)
    expect(error.message).toBe('Grafana answered 400: bad token ***')
  })

  test('a service that echoes another secret of the run (not its own): scrubbed too', async () => {
    registerSecret('pw-of-the-run-7731')
    standIns.next.set('grafana', { status: 400, body: JSON.stringify({ message: 'bad login pw-of-the-run-7731' }) })
    const error = await failure('Grafana', verifiedUpgrade)
    expect(error.message).toBe('Grafana answered 400: bad login ***')
  })

  test("the service's error text: from JSON's message, error, detail or errors[], or short plain text", () => {
    expect(errorText('{"errors":["Forbidden"]}')).toBe('Forbidden')
    expect(errorText('{"error":{"code":"X","message":"nope"}}')).toBe('nope')
    expect(errorText('{"detail":"Invalid token"}')).toBe('Invalid token')
    expect(errorText('channel_is_archived')).toBe('channel_is_archived')
    expect(errorText('')).toBeUndefined()
    expect(errorText('y'.repeat(201))).toBeUndefined()
    expect(errorText('<!doctype html><p>Bad gateway</p>')).toBeUndefined()
  })
})

describe('edges each sink must get right (mutation testing)', () => {
  const noDistribution: ObservedRun = { ...rolledBack, distribution: { id: undefined, name: undefined, md5: undefined, sha256: undefined } }
  const idOnly: ObservedRun = { ...verifiedUpgrade, distribution: { ...verifiedUpgrade.distribution, name: undefined } }
  const nameOnly: ObservedRun = { ...verifiedUpgrade, distribution: { ...verifiedUpgrade.distribution, id: undefined } }
  const noEnvironment: ObservedRun = { ...verifiedUpgrade, environment: undefined }
  const nothingSeen: ObservedRun = { ...verifiedUpgrade, events: [] }

  test('every moment in its own words, evidence cut with an ellipsis', () => {
    const kinds = ['deployed', 'upgraded', 'published', 'rolledback', 'refused', 'unconfirmed', 'cancelled', 'failed'] as const
    const run: ObservedRun = { ...verifiedUpgrade, events: kinds.map((kind, i) => ({ kind, at: T0 + i * S, evidence: 'e' })) }
    expect(timeline(run).map((l) => l.slice('2025-05-06 10:00:00 UTC · '.length))).toEqual([
      'Deployed (the environment ran nothing before): e',
      'Switched to our release: e',
      'Published (the health check passed): e',
      'Rolled back: e',
      'Refused: e',
      'Not settled: e',
      'Cancelled: e',
      'Failed: e'
    ])
    expect(timeline({ ...verifiedUpgrade, events: [{ kind: 'failed', at: T0, evidence: 'abcdef' }] }, 4)).toEqual(['2025-05-06 10:00:00 UTC · Failed: abc…'])
  })

  test('truncate: at most max characters, the ellipsis counted', () => {
    expect(truncate('abcd', 4)).toBe('abcd')
    expect(truncate('abcde', 4)).toBe('abc…')
    expect(truncate('abc', 0)).toBe('…')
  })

  test('the place without an environment is the stack; a repository page on github.com when the run URL only starts with it', () => {
    expect(place(noEnvironment)).toBe('acme')
    expect(commitUrl({ ...verifiedUpgrade, runUrl: '/acme/site/actions/runs/7' })).toBe(COMMIT_URL)
  })

  test('a release tried: seen whatever the release state says; never after a refusal', () => {
    expect(triedRelease({ ...verifiedUpgrade, releaseState: undefined })).toBe(true)
    expect(triedRelease({ ...rolledBack, releaseState: 'waiting', events: rolledBack.events.filter((e) => e.kind === 'rolledback') })).toBe(true)
    expect(triedRelease({ ...refused, releaseState: 'failed' })).toBe(false)
  })

  test('what runs now: the previous distribution only after a rollback, whatever the case of its id', () => {
    const fact = (run: ObservedRun) => (teamsMessage(run).attachments[0]?.content.body[1] as { facts: { title: string; value: string }[] }).facts
    expect(fact(verifiedUpgrade)).toContainEqual({ title: 'Runs now', value: 'd-0002' })
    expect(fact({ ...rolledBack, nowRunning: 'D-0001' })).toContainEqual({
      title: 'Runs now (after the rollback)',
      value: 'D-0001 (the previous distribution, rolled back to)'
    })
    expect(fact({ ...rolledBack, nowRunning: 'd-0003' })).toContainEqual({ title: 'Runs now (after the rollback)', value: 'd-0003' })
  })

  test('Teams: the distribution by its name and id, once when it has one of them, not at all without; no "Runs now" without an environment; nothing observed, no such block', () => {
    const facts = (run: ObservedRun) => (teamsMessage(run).attachments[0]?.content.body[1] as { facts: { title: string; value: string }[] }).facts
    expect(facts(idOnly)).toContainEqual({ title: 'Distribution', value: 'd-0002' })
    expect(facts(nameOnly)).toContainEqual({ title: 'Distribution', value: 'acme-site-1.4.0.tar.gz' })
    expect(facts(noDistribution).map((f) => f.title)).not.toContain('Distribution')
    expect(facts(noEnvironment).map((f) => f.title)).toEqual(['Environment', 'Distribution', 'Commit', 'Release state', 'Run by'])
    expect(teamsMessage(nothingSeen).attachments[0]?.content.body.map((b) => b.type)).toEqual(['TextBlock', 'FactSet'])
  })

  test('Slack: the same edges', () => {
    const fields = (run: ObservedRun) => (slackMessage(run).blocks[1] as { fields: { text: string }[] }).fields.map((f) => f.text)
    expect(fields(idOnly)).toContain('*Distribution*\nd-0002')
    expect(fields(nameOnly)).toContain('*Distribution*\nacme-site-1.4.0.tar.gz')
    expect(fields(noDistribution).join('\n')).not.toContain('*Distribution*')
    expect(fields(noEnvironment).map((f) => f.split('\n')[0])).toEqual(['*Environment*', '*Distribution*', '*Commit*', '*Release state*', '*Run by*'])
    expect(slackMessage(nothingSeen).blocks.map((b) => b.type)).toEqual(['section', 'section', 'actions'])
  })

  test("a webhook's path and query are secret: a service that echoes them is scrubbed", async () => {
    const slackPath = `/slack${SECRETS.slackPath}`
    standIns.next.set('slack', { status: 400, body: `bad_path ${slackPath}`, type: 'text/plain' })
    const slack = await failure('Slack', verifiedUpgrade)
    expect(slack.message).toBe('Slack answered 400: bad_path ***')
    const teamsPath = `/teams/workflows/4f1c/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${SECRETS.teamsSig}`
    standIns.next.set('teams', { status: 400, body: JSON.stringify({ error: { message: `no flow at ${teamsPath}` } }) })
    const teams = await failure('Microsoft Teams', verifiedUpgrade)
    expect(teams.message).toBe('Microsoft Teams answered 400: no flow at ***')
  })

  test('a key a service echoes back is scrubbed: Datadog, Sentry, Honeycomb, New Relic (an error status, and a 200 with errors)', async () => {
    standIns.sentryReleases.add('acme-site-1.4.0.tar.gz')
    standIns.next.set('datadog', { status: 403, body: JSON.stringify({ errors: [`key ${SECRETS.datadogKey} refused`] }) })
    expect((await failure('Datadog', verifiedUpgrade)).message).toBe('Datadog answered 403: key *** refused')
    standIns.next.set('sentry', { status: 401, body: JSON.stringify({ detail: `token ${SECRETS.sentryToken} refused` }) })
    expect((await failure('Sentry', verifiedUpgrade)).message).toBe('Sentry answered 401: token *** refused')
    standIns.next.set('honeycomb', { status: 401, body: JSON.stringify({ error: `key ${SECRETS.honeycombKey} refused` }) })
    expect((await failure('Honeycomb', verifiedUpgrade)).message).toBe('Honeycomb answered 401: key *** refused')
    standIns.next.set('newrelic', { status: 401, body: JSON.stringify({ errors: [{ message: `key ${SECRETS.newRelicKey} refused` }] }) })
    expect((await failure('New Relic', verifiedUpgrade)).message).toBe('New Relic answered 401: key *** refused')
    standIns.next.set('newrelic', { status: 200, body: JSON.stringify({ errors: [{ message: `key ${SECRETS.newRelicKey} refused` }] }) })
    expect((await failure('New Relic', verifiedUpgrade)).message).toBe('New Relic answered 200 with an error: key *** refused')
  })

  test('New Relic: an answer not JSON, or errors without a message, is a failure; an empty errors list is not', async () => {
    standIns.next.set('newrelic', { status: 200, body: 'ok', type: 'text/plain' })
    expect((await failure('New Relic', verifiedUpgrade)).message).toBe('New Relic answered 200 with an error: its answer was not JSON')
    standIns.next.set('newrelic', { status: 200, body: JSON.stringify({ errors: [{ path: ['x'] }] }) })
    expect((await failure('New Relic', verifiedUpgrade)).message).toBe('New Relic answered 200 with an error: errors without a message')
    standIns.next.set('newrelic', { status: 200, body: JSON.stringify({ data: { changeTrackingCreateDeployment: { deploymentId: 'f' } }, errors: [] }) })
    await expect(send('New Relic', verifiedUpgrade)).resolves.toBe(true)
  })

  test('New Relic: no changelog without a name; a rollback of an unnamed distribution says only where it went back to', () => {
    expect(newRelicDeployments(idOnly, ENTITY)[0]?.variables.deployment).not.toHaveProperty('changelog')
    const [back, more] = newRelicDeployments(noDistribution, ENTITY)
    expect(more).toBeUndefined()
    expect(back?.variables.deployment.description).toBe('Rolled back to d-0001 on acme/production: the environment reported d-0001 again')
  })

  test('Honeycomb: a run that tried no release posts nothing and says so', async () => {
    await expect(send('Honeycomb', refused)).resolves.toBe(false)
    expect(standIns.of('honeycomb')).toEqual([])
  })

  test('Datadog: tags without a name; the rollback begins at the last moment seen up to it, one at the same instant too', () => {
    expect(datadogDeployments(idOnly, 'acme-site')[0]?.data.attributes.custom_tags).toEqual(['stack:acme'])
    expect(datadogDeployments(noDistribution, 'acme-site').map((d) => d.data.attributes.custom_tags)).toEqual([['stack:acme'], ['stack:acme']])
    const sameInstant: ObservedRun = {
      ...rolledBack,
      events: [
        { kind: 'upgraded', at: T0 + 90 * S, evidence: 'switch' },
        { kind: 'published', at: T0 + 150 * S, evidence: 'green once' },
        { kind: 'rolledback', at: T0 + 150 * S, evidence: 'back' }
      ]
    }
    expect(datadogDeployments(sameInstant, 'acme-site')[1]?.data.attributes.started_at).toBe((T0 + 150 * S) * NS)
  })

  test("Sentry: the deploy's name fits 64 characters and cuts no part in half: the stack gives way first, then the environment", () => {
    const name = (run: ObservedRun) => sentryDeploy(run, PROJECT)?.name ?? ''
    const api = 'https://api.mystack.bloomreach.cloud'
    // With api-url the stack is named by its address: the rollback's time stays whole, the address is shortened.
    const byAddress = name({ ...rolledBack, stack: api })
    expect(byAddress).toBe('https://api.mystac…/production, rolled back 2025-05-06T10:03:20Z')
    expect(byAddress).toHaveLength(64)
    const longEnvironment = name({ ...rolledBack, stack: api, environment: `production-${'x'.repeat(60)}` })
    expect(longEnvironment).toMatch(/^…\/production-x+…, rolled back 2025-05-06T10:03:20Z$/)
    expect(longEnvironment).toHaveLength(64)
    // Without a rollback the place alone: the stack shortened first there too.
    expect(name({ ...verifiedUpgrade, stack: api.repeat(2) })).toBe(`${api.repeat(2).slice(0, 52)}…/production`)
    expect(name({ ...verifiedUpgrade, stack: api.repeat(2) })).toHaveLength(64)
    expect(name({ ...verifiedUpgrade, stack: 'a'.repeat(53) })).toBe(`${'a'.repeat(53)}/production`)
  })

  test('Sentry: no deploy without a name or an environment', () => {
    expect(sentryDeploy(idOnly, PROJECT)).toBeUndefined()
    expect(sentryDeploy(noEnvironment, PROJECT)).toBeUndefined()
    expect(sentryDeploy({ ...verifiedUpgrade, events: [] }, PROJECT)).toBeUndefined()
  })
})
