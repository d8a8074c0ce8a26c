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

test('workflow-command data is unescaped as a runner does: %0A a new line, %0D a carriage return, %25 a percent sign', () => {
  // @actions/core escapes a message's %, CR and LF; the runner shows the original text.
  expect(runnerLine('::error::first line%0Asecond line')).toBe('Error: first line\nsecond line')
  expect(runnerLine('::warning::100%25 done%0D%0Anext')).toBe('Warning: 100% done\r\nnext')
  // %250A is an escaped "%0A" written by the user: one percent sign, then 0A, never a new line.
  expect(runnerLine('::notice::literal %250A')).toBe('Notice: literal %0A')
  expect(runnerLine('::group::Pack 100%25')).toBe('▸ Pack 100%')
})
