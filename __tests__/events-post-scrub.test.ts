// A sink's call that fails without an answer and without a system error code (no such failure of undici is known
// today: this guards the next one). The transport is replaced so the failure can carry the address and a token in
// its words, as an unknown error might: the sink's failure must carry neither.
import { jest } from '@jest/globals'

const WEBHOOK = 'https://hooks.example.com/services/T0/B0/post-scrub-secret'
const TOKEN = 'post-scrub-token-19'

jest.unstable_mockModule('../src/http/transport.js', () => ({
  HttpTransport: class {
    async send(): Promise<never> {
      throw new Error(`could not write to ${WEBHOOK} with Bearer ${TOKEN}`)
    }
    async close(): Promise<void> {}
  }
}))

const { postJson, SinkCallFailed } = await import('../src/events/sinks/post.js')

test('a failure without an answer or a code: its words with the address and the tokens scrubbed', async () => {
  const error = await postJson({
    service: 'Slack',
    url: WEBHOOK,
    path: '',
    webhook: true,
    body: {},
    secrets: [TOKEN],
    signal: new AbortController().signal
  }).then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(SinkCallFailed)
  expect((error as Error).message).toBe('Slack could not be reached (could not write to *** with Bearer ***)')
})
