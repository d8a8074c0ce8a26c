// Microsoft Teams: one Adaptive Card per run through a Workflows webhook ("When a Teams webhook request
// is received"); the Office 365 connectors' MessageCard is retired. The card travels as a message with
// one attachment: https://learn.microsoft.com/en-us/connectors/teams/?tabs=text1#microsoft-teams-webhook
// A flow answers 202 Accepted (200 from some triggers).
import type { ObservedRun, Sink } from '../observed.js'
import { changesText, commitUrl, distributionLabel, nowRunningText, place, rollbackSeen, rulesFacts, shortSha, timeline } from './facts.js'
import { postJson } from './post.js'

export interface TeamsMessage {
  type: 'message'
  attachments: { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }[]
}

export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json'
  type: 'AdaptiveCard'
  version: '1.4'
  body: (
    | { type: 'TextBlock'; text: string; wrap: true; weight?: 'Bolder'; size?: 'Medium'; spacing?: 'Medium' }
    | { type: 'FactSet'; facts: { title: string; value: string }[] }
  )[]
  actions: { type: 'Action.OpenUrl'; title: string; url: string }[]
}

/** The card for one run: the headline, a FactSet (where, what, commit, state, what runs now, who), what was observed, links. */
export function teamsMessage(run: ObservedRun): TeamsMessage {
  const facts = [{ title: 'Environment', value: place(run) }]
  const dist = distributionLabel(run)
  if (dist !== undefined) {
    const id = run.distribution.id !== undefined && run.distribution.id !== dist ? ` (${run.distribution.id})` : ''
    facts.push({ title: 'Distribution', value: `${dist}${id}` })
  }
  if (run.commit !== undefined) facts.push({ title: 'Commit', value: shortSha(run.commit) })
  if (run.releaseState !== undefined) facts.push({ title: 'Release state', value: run.releaseState })
  if (run.environment !== undefined) facts.push({ title: rollbackSeen(run) ? 'Runs now (after the rollback)' : 'Runs now', value: nowRunningText(run) })
  if (run.actor !== undefined) facts.push({ title: 'Run by', value: run.actor })
  facts.push(...rulesFacts(run))

  const body: AdaptiveCard['body'] = [
    { type: 'TextBlock', text: run.headline, wrap: true, weight: 'Bolder', size: 'Medium' },
    { type: 'FactSet', facts }
  ]
  const changes = changesText(run)
  if (changes.length > 0) {
    body.push({ type: 'TextBlock', text: 'Changes', wrap: true, weight: 'Bolder', spacing: 'Medium' })
    body.push({ type: 'TextBlock', text: changes.join('\n\n'), wrap: true })
  }
  const seen = timeline(run)
  if (seen.length > 0) {
    body.push({ type: 'TextBlock', text: 'What was observed', wrap: true, weight: 'Bolder', spacing: 'Medium' })
    // A blank line between moments: a TextBlock's Markdown joins single line breaks.
    body.push({ type: 'TextBlock', text: seen.join('\n\n'), wrap: true })
  }
  const actions: AdaptiveCard['actions'] = []
  if (run.runUrl !== undefined) actions.push({ type: 'Action.OpenUrl', title: 'View the run', url: run.runUrl })
  const commit = commitUrl(run)
  if (commit !== undefined && run.commit !== undefined) actions.push({ type: 'Action.OpenUrl', title: `View commit ${shortSha(run.commit)}`, url: commit })
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, actions }
      }
    ]
  }
}

export function teamsSink(config: { readonly webhookUrl: string }): Sink {
  return {
    name: 'Microsoft Teams',
    async send(run, signal) {
      await postJson({
        service: 'Microsoft Teams',
        url: config.webhookUrl,
        path: '',
        // The webhook's URL is its secret: postJson scrubs a call's address, and a webhook's path, from every failure.
        webhook: true,
        body: teamsMessage(run),
        secrets: [],
        signal
      })
      return true
    }
  }
}
