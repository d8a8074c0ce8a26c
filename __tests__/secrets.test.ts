// The one list of secrets (src/secrets.ts): what the run's own words are scrubbed of. A service may echo a secret back
// percent-encoded (in a URL it quotes): that form is scrubbed too. Found by `npm run plant-deletions`: forgetting to
// remember the encoded form survived every test (docs/reliability-and-security.md, "Planted deletions").
import { redact, registerSecret } from '../src/secrets.js'
import { useTestPort } from './test-port.js'

const masked: string[] = []
useTestPort({ setSecret: (s) => void masked.push(s) })

test('a secret echoed as given, percent-encoded or form-encoded is scrubbed; each form is masked for the runner', () => {
  registerSecret('p@ss w&rd/0451')
  expect(redact('refused p@ss w&rd/0451 at /login?password=p%40ss%20w%26rd%2F0451')).toBe('refused *** at /login?password=***')
  // A token endpoint quoting the password grant's form body: a space there is '+'.
  expect(redact('Request was: body=username=deployer&password=p%40ss+w%26rd%2F0451&grant_type=password')).toBe(
    'Request was: body=username=deployer&password=***&grant_type=password'
  )
  expect(masked).toEqual(['p@ss w&rd/0451', 'p%40ss%20w%26rd%2F0451', 'p%40ss+w%26rd%2F0451'])
})

test('nothing else is touched; an empty or absent value registers nothing', () => {
  const before = masked.length
  registerSecret('')
  registerSecret(undefined)
  expect(masked).toHaveLength(before)
  expect(redact('nothing secret here')).toBe('nothing secret here')
})
