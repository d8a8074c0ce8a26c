// Slack: one message per run through an incoming webhook, in Block Kit, with `text` as the
// notification's fallback. https://api.slack.com/messaging/webhooks; success is 200 with the body "ok".
import type { ObservedRun, Sink } from '../observed.js'
import { changesText, commitUrl, distributionLabel, nowRunningText, place, rollbackSeen, rulesFacts, shortSha, timeline, truncate } from './facts.js'
import { postJson } from './post.js'

// Block Kit's limits: a section's text 3000 characters, a field's 2000, a button's URL 3000.
const SECTION_MAX = 3000
const FIELD_MAX = 2000

type Text = { type: 'mrkdwn' | 'plain_text'; text: string }
export type SlackBlock =
  { type: 'section'; text: Text } | { type: 'section'; fields: Text[] } | { type: 'actions'; elements: { type: 'button'; text: Text; url: string }[] }

export interface SlackMessage {
  text: string
  blocks: SlackBlock[]
}

/** The message for one run: the headline, then where, what, which commit, the release state, what runs now, what was observed. */
export function slackMessage(run: ObservedRun): SlackMessage {
  const md = (text: string, max = SECTION_MAX): Text => ({ type: 'mrkdwn', text: truncate(text, max) })
  const field = (title: string, value: string): Text => md(`*${title}*\n${value}`, FIELD_MAX)
  const fields = [field('Environment', escape(place(run)))]
  const dist = distributionLabel(run)
  if (dist !== undefined) {
    const id = run.distribution.id !== undefined && run.distribution.id !== dist ? ` (\`${escape(run.distribution.id)}\`)` : ''
    fields.push(field('Distribution', `${escape(dist)}${id}`))
  }
  if (run.commit !== undefined) {
    const url = commitUrl(run)
    fields.push(field('Commit', url === undefined ? `\`${shortSha(run.commit)}\`` : `<${url}|${shortSha(run.commit)}>`))
  }
  if (run.releaseState !== undefined) fields.push(field('Release state', escape(run.releaseState)))
  if (run.environment !== undefined) fields.push(field(rollbackSeen(run) ? 'Runs now (after the rollback)' : 'Runs now', escape(nowRunningText(run))))
  if (run.actor !== undefined) fields.push(field('Run by', escape(run.actor)))
  for (const fact of rulesFacts(run)) fields.push(field(fact.title, escape(fact.value)))

  const blocks: SlackBlock[] = [
    { type: 'section', text: md(`*${escape(run.headline)}*`) },
    { type: 'section', fields }
  ]
  const changes = changesText(run)
  if (changes.length > 0) blocks.push({ type: 'section', text: md(`*Changes*\n${changes.map((l) => escape(l)).join('\n')}`) })
  const seen = timeline(run)
  if (seen.length > 0) blocks.push({ type: 'section', text: md(`*What was observed*\n${seen.map((l) => `• ${escape(l)}`).join('\n')}`) })
  if (run.runUrl !== undefined)
    blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'View the run' }, url: run.runUrl }] })
  return { text: `${run.headline} (${place(run)})`, blocks }
}

/** Slack's mrkdwn takes &, < and > as control characters: https://api.slack.com/reference/surfaces/formatting#escaping */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

export function slackSink(config: { readonly webhookUrl: string }): Sink {
  return {
    name: 'Slack',
    async send(run, signal) {
      await postJson({
        service: 'Slack',
        url: config.webhookUrl,
        path: '',
        // The webhook's URL is its secret: postJson scrubs a call's address, and a webhook's path, from every failure.
        webhook: true,
        body: slackMessage(run),
        secrets: [],
        signal
      })
      return true
    }
  }
}
