// The calls that guard a secret or a promise to the user, found by pattern in the action's sources (docs/
// reliability-and-security.md, "Planted deletions"), and how one of them is planted away: StrykerJS never deletes a
// statement, so only this shows whether a test notices such a call gone. Pure: source text in, sites and mutants out.
import ts from 'typescript'

/** What a guard protects: a secret masked, a token revoked, a GitHub Deployment closed, a hand-off to the post step, a text scrubbed. */
export type GuardKind = 'mask' | 'revoke' | 'final-status' | 'handoff' | 'scrub'

interface CallRule {
  readonly kind: GuardKind
  /** The called function's or method's name. */
  readonly name: RegExp
  /** The object a method is called on (its text), when the name alone says too little. */
  readonly receiver?: RegExp
  /** The first argument's text, when the name and receiver say too little. */
  readonly firstArgument?: (text: string | undefined) => boolean
  /** A wrapper that returns its scrubbed argument: planted as the argument itself, not deleted. */
  readonly unwrap?: true
}

/** A name that starts like a guard but is not one: a note about a revocation, the callback told of one. */
const NOT_A_GUARD = /^revoke\w*Note$/

/** By name, so a new call site (or a new revoke* function) is found with no change here. */
export const CALL_RULES: readonly CallRule[] = [
  { kind: 'mask', name: /^(registerSecret|setSecret)$/ },
  { kind: 'revoke', name: /^revo(ke|cation)([A-Z]\w*)?$/ },
  { kind: 'revoke', name: /^(closeRun|closingCalls|closeSession)$/ },
  { kind: 'final-status', name: /^(setErrorStatus|createDeploymentStatus|createStatus|setDeploymentState|finish\w*Deployment)$/ },
  // A GitHub Deployment's status that ends it (in_progress opens one, and guards nothing).
  { kind: 'final-status', name: /^set$/, receiver: /deployment\??$/i, firstArgument: (text) => !/^['"`](in_progress|queued|pending)['"`]$/.test(text ?? '') },
  // What the post step needs to keep the main step's promises after a kill: the tokens to revoke, the Deployment to close.
  { kind: 'handoff', name: /^note(\w*Tokens?|(GitHub|GitLab)Deployment\w*)$/ },
  { kind: 'scrub', name: /^(redact|scrub|mask|maskedReader)$/, unwrap: true }
]

/** The functions that are a mask themselves: every call in their bodies is a guard (the CLI's set of secrets, redact's). */
const MASK_IMPLEMENTATIONS = /^(registerSecret|setSecret)$/

/** A workflow command or logging command that masks what follows it, written by hand. */
const MASK_COMMAND = /::add-mask::|issecret=true/i

export interface GuardSite {
  /** The file, relative to the project (forward slashes). */
  readonly file: string
  /** 1-based line and column of the call. */
  readonly line: number
  readonly column: number
  readonly kind: GuardKind
  /** The call as written, on one line, shortened. */
  readonly call: string
  /** How it is planted: the statement deleted, the call replaced by undefined (its value was used), or by its argument. */
  readonly plant: 'delete-statement' | 'undefined' | 'unwrap'
  readonly start: number
  readonly end: number
  readonly replacement: string
}

/** Every guard site of one file, in source order. */
export function findGuardSites(file: string, source: string): GuardSite[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const sites = new Map<number, GuardSite>()
  const visit = (node: ts.Node, inMask: boolean): void => {
    if (ts.isCallExpression(node)) {
      const kind = ruleFor(node, inMask)
      if (kind !== undefined && !sites.has(node.getStart())) sites.set(node.getStart(), siteOf(sf, file, node, kind))
    }
    ts.forEachChild(node, (child) => visit(child, inMask || isMaskImplementation(child)))
  }
  visit(sf, false)
  return [...sites.values()].sort((a, b) => a.start - b.start)
}

/** The source with one site planted. */
export function plant(source: string, site: GuardSite): string {
  return source.slice(0, site.start) + site.replacement + source.slice(site.end)
}

/** Why a planted source does not parse, or undefined: a mutant that cannot load would be "killed" by every suite. */
export function syntaxError(file: string, source: string): string | undefined {
  const out = ts.transpileModule(source, { fileName: file, reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } })
  const first = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error)
  return first === undefined ? undefined : ts.flattenDiagnosticMessageText(first.messageText, '\n')
}

function ruleFor(call: ts.CallExpression, inMask: boolean): GuardKind | undefined {
  const name = calleeName(call)
  if (name !== undefined && !NOT_A_GUARD.test(name)) {
    const receiver = receiverText(call)
    const first = call.arguments[0]?.getText()
    const rule = CALL_RULES.find(
      (r) => r.name.test(name) && (r.receiver === undefined || r.receiver.test(receiver ?? '')) && (r.firstArgument?.(first) ?? true)
    )
    if (rule !== undefined && (!rule.unwrap || call.arguments.length > 0)) return rule.kind
  }
  if (call.arguments.some((a) => (ts.isStringLiteralLike(a) || ts.isTemplateExpression(a)) && MASK_COMMAND.test(a.getText()))) return 'mask'
  // Inside a mask's own body, every call that stands alone (a statement, an arrow's body) is part of the mask.
  if (inMask && (statementOf(call) !== undefined || isArrowBody(call))) return 'mask'
  return undefined
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression
  if (ts.isIdentifier(callee)) return callee.text
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text
  return undefined
}

function receiverText(call: ts.CallExpression): string | undefined {
  const callee = call.expression
  return ts.isPropertyAccessExpression(callee) ? callee.expression.getText() + (callee.questionDotToken ? '?' : '') : undefined
}

function isMaskImplementation(node: ts.Node): boolean {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) return node.name !== undefined && MASK_IMPLEMENTATIONS.test(node.name.getText())
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const owner = node.parent
    return (ts.isPropertyAssignment(owner) || ts.isVariableDeclaration(owner)) && MASK_IMPLEMENTATIONS.test(owner.name.getText())
  }
  return false
}

function isArrowBody(call: ts.CallExpression): boolean {
  let node: ts.Node = call
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent
  return ts.isArrowFunction(node.parent) && node.parent.body === node
}

/** The statement that is nothing but this call (awaited, voided or in parentheses), or undefined when its value is used. */
function statementOf(call: ts.CallExpression): ts.ExpressionStatement | undefined {
  let node: ts.Node = call
  while (ts.isAwaitExpression(node.parent) || ts.isVoidExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent
  return ts.isExpressionStatement(node.parent) ? node.parent : undefined
}

function siteOf(sf: ts.SourceFile, file: string, call: ts.CallExpression, kind: GuardKind): GuardSite {
  const at = sf.getLineAndCharacterOfPosition(call.getStart())
  const oneLine = call.getText().replace(/\s+/g, ' ')
  const base = { file, line: at.line + 1, column: at.character + 1, kind, call: oneLine.length > 90 ? `${oneLine.slice(0, 87)}...` : oneLine }
  const unwrap = CALL_RULES.some((r) => r.unwrap && r.kind === kind && r.name.test(calleeName(call) ?? ''))
  const first = call.arguments[0]
  if (unwrap && first !== undefined) return { ...base, plant: 'unwrap', start: call.getStart(), end: call.getEnd(), replacement: `(${first.getText()})` }
  const statement = statementOf(call)
  if (statement !== undefined) {
    // The same number of lines, so every other line keeps its number in a stack trace.
    const lines = statement.getText().split('\n').length - 1
    return { ...base, plant: 'delete-statement', start: statement.getStart(), end: statement.getEnd(), replacement: `;${'\n'.repeat(lines)}` }
  }
  return { ...base, plant: 'undefined', start: call.getStart(), end: call.getEnd(), replacement: 'undefined' }
}
