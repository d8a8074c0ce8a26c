// The runner's variables of a workflow run of acme/site whose GitHub API is a stand-in. @actions/github reads them
// (and its API address) once, when it is first imported: set them before importing anything that imports it.
// `over` sets others, or other values (a test's own run id).
export function runOfAcmeSite(apiUrl: string, sha: string, over: Record<string, string> = {}): void {
  Object.assign(process.env, {
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: 'acme/site',
    GITHUB_RUN_ID: '4242',
    GITHUB_SHA: sha,
    GITHUB_REF: 'refs/heads/main',
    ...over
  })
}
