// An answer GitLab gives instead of doing the thing, in the body GitLab writes for it: `{message}` for its own
// refusals ("404 Commit Not Found", a model's validation errors by field), `{error}` for a parameter its API framework
// refuses before the endpoint runs ("sha is missing", "status does not have a valid value").

export class GitLabError extends Error {
  override name = 'GitLabError'
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>
  ) {
    super(typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : JSON.stringify(body))
  }

  /** `{"message": "404 <What> Not Found"}`, as GitLab's not_found! writes it. */
  static notFound(what: string): GitLabError {
    return new GitLabError(404, { message: `404 ${what} Not Found` })
  }

  /** `{"message": ...}` with any status: a sentence, or fields and their errors. */
  static message(status: number, message: string | Record<string, string[]>): GitLabError {
    return new GitLabError(status, { message })
  }

  /** A record GitLab could not save: 400 with its errors by field. */
  static validation(errors: Record<string, string[]>): GitLabError {
    return new GitLabError(400, { message: errors })
  }

  /** Parameters refused before the endpoint runs: 400 `{"error": "a is missing, b is invalid"}`. */
  static params(problems: string[]): GitLabError {
    return new GitLabError(400, { error: problems.join(', ') })
  }
}
