// Queue of injected faults: each one applies to the first `times` calls of its operation (after
// letting the first `skip` through, when set).
import type { Fault, Operation } from './types.js'

export class FaultQueue {
  private readonly faults: Fault[] = []

  constructor(initial: Fault[] = []) {
    for (const f of initial) this.add(f)
  }

  add(fault: Fault): void {
    if (fault.kind === 'status' && (fault.status === undefined || fault.status < 100 || fault.status > 599)) {
      throw new RangeError(`A 'status' fault needs a status between 100 and 599 (operation ${fault.operation})`)
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
}
