// The small HTML reference served at GET /v3/docs.
import type { Route } from './router.js'

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
}

export function docsPage(routes: Route[]): string {
  const rows = routes
    .map(
      (r) =>
        `<tr><td><code>${escape(r.method)}</code></td><td><code>${escape(r.path)}</code></td>` +
        `<td>${escape(r.operation)}</td><td>${escape(r.summary ?? '')}</td></tr>`
    )
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bloomreach Cloud API emulator</title></head>
<body>
<h1>Bloomreach Cloud deployment API (local emulator)</h1>
<p>Authenticated calls need <code>Authorization: Bearer &lt;access_token&gt;</code> from
<code>POST /v3/authn/access_token</code>. Paths must not end with a slash.
Errors are JSON <code>{"error_code": "...", "error_detail": "..."}</code>.</p>
<table border="1" cellpadding="4">
<tr><th>Method</th><th>Path</th><th>Operation</th><th>Description</th></tr>
${rows}
</table>
</body>
</html>
`
}
