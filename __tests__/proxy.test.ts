// Which proxy a call goes through (named when a connection fails), and loopback never through one.
import { isLoopbackAddress, noProxyWithLoopback, proxyFor } from '../src/http/proxy.js'

test('https goes through HTTPS_PROXY (lower case first), http through HTTP_PROXY; the proxy is shown without its password', () => {
  const env = { HTTPS_PROXY: 'http://user:s3cret@proxy.corp:3128', http_proxy: 'http://plain.corp:8080' }
  expect(proxyFor('https://api.mystack.bloomreach.cloud', env)).toEqual({ url: 'http://proxy.corp:3128', variable: 'HTTPS_PROXY' })
  expect(proxyFor('http://api.example.com', env)).toEqual({ url: 'http://plain.corp:8080', variable: 'http_proxy' })
  expect(proxyFor('https://api.mystack.bloomreach.cloud', { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })?.variable).toBe('https_proxy')
  expect(proxyFor('https://api.mystack.bloomreach.cloud', {})).toBeUndefined()
})

test('NO_PROXY exceptions apply as undici applies them (exact host, a .suffix, a port, *)', () => {
  const env = { HTTPS_PROXY: 'http://proxy.corp:3128' }
  expect(proxyFor('https://api.mystack.bloomreach.cloud', { ...env, NO_PROXY: '.bloomreach.cloud' })).toBeUndefined()
  expect(proxyFor('https://api.mystack.bloomreach.cloud', { ...env, NO_PROXY: 'api.mystack.bloomreach.cloud:8443' })).toBeDefined()
  expect(proxyFor('https://api.mystack.bloomreach.cloud', { ...env, NO_PROXY: '*' })).toBeUndefined()
})

test('loopback addresses never go through a proxy, whatever NO_PROXY says', () => {
  const env = { HTTP_PROXY: 'http://proxy.corp:3128', HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '' }
  for (const url of ['http://127.0.0.1:4080', 'http://localhost:4080', 'http://[::1]:4080', 'http://127.0.0.2:4080']) expect(proxyFor(url, env)).toBeUndefined()
  expect(noProxyWithLoopback({ NO_PROXY: 'internal.corp' })).toBe('internal.corp,localhost,127.0.0.1,[::1]')
  expect(noProxyWithLoopback({ no_proxy: '*' })).toBe('*')
  expect(noProxyWithLoopback({}, '127.0.0.5')).toBe('localhost,127.0.0.1,[::1],127.0.0.5')
  expect(isLoopbackAddress('api.mystack.bloomreach.cloud')).toBe(false)
})
