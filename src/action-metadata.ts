// Generated from action.yml by `npm run docs`; `npm run docs -- --check` (CI) fails when it is stale. Do not edit.
/** Every input with the default action.yml declares ('' when none). */
export const INPUT_DEFAULTS = {
  'stack': '',
  'console-url': '',
  'platform-domain': 'bloomreach.cloud',
  'api-url': '',
  'username': '',
  'password': '',
  'distribution': '',
  'distribution-name': '',
  'compression-level': '6',
  'build-command': '',
  'environment': '',
  'github-token': '',
  'deploy-strategy': 'stopstart',
  'max-distribution-size': '650',
  'max-distributions': '',
  'max-attempts': '4',
  'request-timeout-seconds': '60',
  'timeout-minutes': '30',
  'search-query': '',
  'search-type': 'keyword',
  'search-account-id': '',
  'search-auth-key': '',
  'search-domain-key': '',
  'search-environment': 'production',
  'search-base-url': '',
  'search-fields': 'pid,title,url',
  'search-rows': '10',
  'search-min-results': '1',
  'search-timeout-seconds': '5',
  'search-url': '',
  'search-uid': '',
  'search-wait-seconds': '0',
  'dry-run': 'false'
} as const
export type InputName = keyof typeof INPUT_DEFAULTS
/** Every output action.yml declares. */
export const OUTPUT_NAMES = ['cloud-api-url', 'distribution-id', 'distribution-name', 'distribution-size', 'distribution-sha256', 'environment-id', 'pruned-distributions', 'search-num-found', 'search-latency-ms', 'search-request-id'] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]
