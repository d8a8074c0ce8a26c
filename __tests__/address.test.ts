import { resolveCloudAddress, isLoopbackHost, type AddressInputs } from '../src/inputs/address.js'
import { InputError } from '../src/errors.js'

const none: AddressInputs = { stack: '', consoleUrl: '', platformDomain: '', apiUrl: '' }
const resolve = (over: Partial<AddressInputs>) => resolveCloudAddress({ ...none, ...over })

function refused(over: Partial<AddressInputs>, pattern: RegExp): void {
  let error: unknown
  try {
    resolve(over)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(InputError)
  expect((error as Error).message).toMatch(pattern)
}

describe('cloud address', () => {
  test('stack with the default platform domain', () => {
    expect(resolve({ stack: 'mystack' })).toEqual({
      apiUrl: 'https://api.mystack.bloomreach.cloud',
      stack: 'mystack',
      source: 'stack',
      consoleUrl: 'https://missioncontrol.mystack.bloomreach.cloud'
    })
  })

  test('stack with another platform domain; upper case folded', () => {
    expect(resolve({ stack: 'My-Stack1', platformDomain: 'onehippo.io' }).apiUrl).toBe('https://api.my-stack1.onehippo.io')
  })

  test('console-url gives stack and domain; path and fragment ignored', () => {
    expect(resolve({ consoleUrl: 'https://missioncontrol.acme.bloomreach.cloud/#/environments' })).toEqual({
      apiUrl: 'https://api.acme.bloomreach.cloud',
      stack: 'acme',
      source: 'console-url',
      consoleUrl: 'https://missioncontrol.acme.bloomreach.cloud'
    })
    expect(resolve({ consoleUrl: 'https://missioncontrol.acme.example.org/' }).apiUrl).toBe('https://api.acme.example.org')
  })

  test('api-url wins over console-url and stack; trailing slashes dropped', () => {
    const a = resolve({ apiUrl: 'https://api.custom.example.com///', consoleUrl: 'https://missioncontrol.x.bloomreach.cloud', stack: 'y' })
    expect(a).toEqual({ apiUrl: 'https://api.custom.example.com', stack: 'y', source: 'api-url', consoleUrl: 'https://missioncontrol.custom.example.com' })
    expect(resolve({ apiUrl: 'https://gw.example.com/cloud/' }).apiUrl).toBe('https://gw.example.com/cloud')
  })

  test('console-url wins over stack', () => {
    expect(resolve({ consoleUrl: 'https://missioncontrol.a.bloomreach.cloud', stack: 'b' }).stack).toBe('a')
  })

  test('plain http only to loopback hosts', () => {
    expect(resolve({ apiUrl: 'http://127.0.0.1:4080/' }).apiUrl).toBe('http://127.0.0.1:4080')
    expect(resolve({ apiUrl: 'http://localhost:4080' }).apiUrl).toBe('http://localhost:4080')
    expect(resolve({ apiUrl: 'http://[::1]:4080' }).apiUrl).toBe('http://[::1]:4080')
    expect(resolve({ apiUrl: 'http://127.1.2.3' }).apiUrl).toBe('http://127.1.2.3')
    refused({ apiUrl: 'http://api.mystack.bloomreach.cloud' }, /plain http.*unencrypted.*Use https/)
    refused({ apiUrl: 'http://10.0.0.1:4080' }, /plain http/)
    refused({ apiUrl: 'http://localhost.evil.com' }, /plain http/)
  })

  test.each([
    ['my.stack', /contains a dot/],
    ['my/stack', /contains a slash/],
    ['my stack', /white space/],
    ['https://mystack', /looks like an address/],
    ['https://missioncontrol.acme-prod.bloomreach.cloud/', /is an address, not a stack name: use stack: acme-prod/],
    ['api-acme.onehippo.io', /use stack: acme/],
    ['-stack', /one DNS label/],
    ['stack-', /one DNS label/],
    ['a'.repeat(64), /64 characters/],
    ['st_ack', /one DNS label/]
  ])('stack %p is refused', (stack, why) => {
    refused({ stack }, why)
    refused({ stack }, /missioncontrol\./)
  })

  test('a 63-character stack is accepted', () => {
    expect(resolve({ stack: 'a'.repeat(63) }).stack).toBe('a'.repeat(63))
  })

  test.each([
    'https://console.acme.bloomreach.cloud',
    'http://missioncontrol.acme.bloomreach.cloud',
    'https://missioncontrol.bloomreach.cloud',
    'missioncontrol.acme.bloomreach.cloud',
    'https://missioncontrol.ac_me.bloomreach.cloud'
  ])('console-url %p is refused', (consoleUrl) => {
    expect(() => resolve({ consoleUrl })).toThrow(InputError)
  })

  test('other api-url refusals', () => {
    refused({ apiUrl: 'api.mystack.bloomreach.cloud' }, /not an absolute address/)
    refused({ apiUrl: 'ftp://api.example.com' }, /must start with https/)
    refused({ apiUrl: 'https://user:pw@api.example.com' }, /must not contain a user name or password/)
    refused({ apiUrl: 'https://api.example.com/?x=1' }, /query or fragment/)
    refused({ apiUrl: 'https://api.example.com/v3/' }, /without the version/)
    refused({ apiUrl: 'https://api.example.com', stack: 'bad.stack' }, /contains a dot/)
  })

  test('nothing given', () => refused({}, /No Bloomreach Cloud stack given.*stack.*console-url.*api-url/))

  test('bad platform domain', () => refused({ stack: 'ok', platformDomain: 'https://bloomreach.cloud' }, /platform-domain/))

  test('isLoopbackHost', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
    expect(isLoopbackHost('128.0.0.1')).toBe(false)
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false)
  })
})
