// The log as a runner shows it (the demo and `npm run action` print this view).
import { runnerLine, runnerView } from '../scripts/lib/runner-view.js'

test('workflow commands become what a runner shows; masks and debug lines disappear', () => {
  const raw = [
    '::add-mask::s3cret',
    '::group::Log in',
    'Logged in.',
    '::debug::POST /v3/authn/access_token -> 200',
    '::endgroup::',
    '::warning::careful',
    '::error::it failed',
    '::notice file=a.ts,line=1::done'
  ].join('\n')
  expect(runnerView(raw)).toBe(['▸ Log in', 'Logged in.', 'Warning: careful', 'Error: it failed', 'Notice: done'].join('\n'))
  expect(runnerLine('::debug::x', true)).toBe('##[debug]x')
  expect(runnerLine('plain :: text')).toBe('plain :: text')
})
