// Queue of injected faults: each one applies to the first `times` calls of its operation (after
// letting the first `skip` through, when set). The faults that let a call be carried out and then
// change its answer ('apply-then-status', 'apply-then-delay') replace the request's send paths.
import { codeForStatus, errorBody } from './http-util.js'
import type { RequestContext } from './router.js'
import type { Fault, Operation } from './types.js'

export class FaultQueue {
  private readonly faults: Fault[] = []
  /** Answers held back by 'apply-then-delay', each with what releases its wait; close() cancels them. */
  private readonly held = new Map<NodeJS.Timeout, (elapsed: boolean) => void>()

  constructor(initial: Fault[] = []) {
    for (const f of initial) this.add(f)
  }

  add(fault: Fault): void {
    if ((fault.kind === 'status' || fault.kind === 'apply-then-status') && (fault.status === undefined || fault.status < 100 || fault.status > 599)) {
      throw new RangeError(`A '${fault.kind}' fault needs a status between 100 and 599 (operation ${fault.operation})`)
    }
    if (fault.kind === 'apply-then-delay' && (fault.delayMs === undefined || !Number.isFinite(fault.delayMs) || fault.delayMs < 0)) {
      throw new RangeError(`An 'apply-then-delay' fault needs a delayMs >= 0 (operation ${fault.operation})`)
    }
    this.faults.push({ ...fault })
  }

  /** Returns the first pending fault for `operation` and uses up one of its calls. */
  take(operation: Operation): Fault | undefined {
    const fault = this.faults.find((f) => f.operation === operation && f.times > 0)
    if (fault === undefined) return undefined
    if (fault.skip !== undefined && fault.skip > 0) {
      fault.skip -= 1
      return undefined
    }
    fault.times -= 1
    return { ...fault }
  }

  /** 'apply-then-status': the call runs in full, then whatever it answers becomes `status` with the usual error body. */
  answerStatusAfterApply(ctx: RequestContext, fault: Fault): void {
    answerStatus(ctx, fault)
  }

  /** 'apply-then-delay': the call runs in full, its answer is sent `delayMs` late (unless the client left, or close() came first). */
  answerLateAfterApply(ctx: RequestContext, fault: Fault): void {
    answerLate(ctx, fault.delayMs ?? 0, (ms) => this.hold(ms))
  }

  /** Ends every wait at once, with nothing sent (close(): the connections are going). */
  cancelHeld(): void {
    for (const [timer, resume] of this.held) {
      clearTimeout(timer)
      resume(false)
    }
    this.held.clear()
  }

  /** Resolves true after `ms`, false when cancelled first; the timer never keeps the process alive. */
  private hold(ms: number): Promise<boolean> {
    return new Promise((resume) => {
      const timer = setTimeout(() => {
        this.held.delete(timer)
        resume(true)
      }, ms)
      timer.unref()
      this.held.set(timer, resume)
    })
  }
}

/** A stream handed to sendStream but never sent: close what it opened (a file), if it can say so. */
function discard(body: AsyncIterable<Buffer>): void {
  const closable = body as { destroy?: () => void; return?: () => unknown }
  if (typeof closable.destroy === 'function') closable.destroy()
  else if (typeof closable.return === 'function') void closable.return()
}

/** Every answer of the call becomes `status` with its service's error body, whatever the handler did (a deploy done, answered 500). */
function answerStatus(ctx: RequestContext, fault: Fault): void {
  const send = ctx.send.bind(ctx)
  const status = fault.status ?? 500
  const detail = `Emulated fault after apply on ${fault.operation}`
  // The search service's paths answer in its own error shape.
  const answer = (): void => send(status, fault.operation === 'search' ? { status_code: status, message: detail } : errorBody(codeForStatus(status), detail))
  ctx.send = answer
  ctx.sendText = answer
  ctx.sendStream = (_status, _headers, _length, body) => {
    discard(body)
    answer()
    return Promise.resolve()
  }
}

/** Holds every answer of the call back `ms`; sends nothing when the client left or the wait was cancelled. */
function answerLate(ctx: RequestContext, ms: number, hold: (ms: number) => Promise<boolean>): void {
  const { send, sendText, sendStream } = { send: ctx.send.bind(ctx), sendText: ctx.sendText.bind(ctx), sendStream: ctx.sendStream.bind(ctx) }
  let gone = false
  ctx.res.once('close', () => (gone = true))
  const later = async (): Promise<boolean> => (await hold(ms)) && !gone
  ctx.send = (...args) => void later().then((ok) => ok && send(...args))
  ctx.sendText = (...args) => void later().then((ok) => ok && sendText(...args))
  ctx.sendStream = async (status, headers, length, body) => {
    if (await later()) await sendStream(status, headers, length, body)
    else discard(body)
  }
}
